import { realAppsTargets, type RealAppsReport } from './real-apps';
import { formatBytes, formatNs, formatRatio, table } from './report';

const n = (value: number) => value.toLocaleString('en-US');
const ms = (value: number, digits = 0) => `${value.toFixed(digits)} ms`;

/** The "Real apps" tables of one run (issue 26), as markdown: printed by run.js, and the Real apps section of docs/performance.md. */
export function renderRealApps(report: RealAppsReport, heading = '###'): string {
  const sections: string[] = [];
  const { roundRobin, startup, registryFrom, memory } = report;
  sections.push(
    `Run ${report.generatedAt.slice(0, 16).replace('T', ' ')} UTC against @toolwright/core at \`${report.coreCommit}\`. Load average (1/5/15 min) ${report.loadAverageAtStart.join(' / ')} at the start and ${report.loadAverageAtEnd.join(' / ')} at the end, on 2 cores: CPU time (\`process.cpuUsage()\`, every thread of the process, so V8's background compilation and GC count) is what is compared, never wall time, and ratios are taken within one process.`,
  );
  const sizes = roundRobin.sizes;
  const kindTable = (kind: 'class' | 'json', baselineId: string) =>
    table(
      ['contender', ...sizes.map((size) => `${n(size)} command${size === 1 ? '' : 's'}`)],
      roundRobin.contenders
        .filter((contender) => contender.kind === kind)
        .map((contender) => [
          contender.label,
          ...sizes.map((size) => {
            const value = roundRobin.medianNs[size]![contender.id]!;
            const baseline = roundRobin.medianNs[size]![baselineId]!;
            return `${formatNs(value)} (${formatRatio(value / baseline)})`;
          }),
        ]),
      ['l', ...sizes.map((): 'r' => 'r')],
    );
  sections.push(
    `${heading} Round-robin over distinct commands\n\nN commands, each with parameter names of its own and a seeded mix of bounded strings, integers, numbers, booleans, enums, date-times, e-mail addresses, nested objects and arrays (\`bench/src/realistic/shapes.ts\`), called round-robin after every command has been called, each command's arguments different from one call to the next (16 texts per command). Every contender gets the same calls, is first checked (it must accept every call and refuse each command's invalid call), then gets the same number of warm-up calls; then interleaved rounds of CPU time, medians per call, ${roundRobin.passes === 1 ? 'one fresh process per size' : `${roundRobin.passes} fresh processes per size (passes interleaved across sizes), the median of their medians`}. The hand-written baseline is one generated straight-line function per shape: JSON.parse, then exactly the checks toolwright makes (no normalizing copy). A class command's e-mail fields carry \`@IsEmail()\`, so the class-kind baselines check e-mail; a JSON-Schema tool's \`format: "email"\` is an annotation, so the JSON-kind baselines do not.\n\nClass commands (in brackets: x the hand-written check):\n\n${kindTable('class', 'class:hand')}\n\nJSON-Schema tools (in brackets: x ajv):\n\n${kindTable('json', 'json:ajv')}\n\nSame-process ratios (median over the passes):\n\n${table(
      ['ratio', ...sizes.map((size) => n(size))],
      Object.keys(roundRobin.ratios[sizes[0]!]!).map((name) => [
        name,
        ...sizes.map((size) => formatRatio(roundRobin.ratios[size]![name])),
      ]),
      ['l', ...sizes.map((): 'r' => 'r')],
    )}`,
  );
  const runs = startup.runs;
  const phase = (label: string, pick: (run: (typeof runs)[number]) => number, digits = 0) => [
    label,
    ms(pick(startup.median), digits),
    runs.map((run) => pick(run).toFixed(digits)).join(', '),
  ];
  sections.push(
    `${heading} Startup: ${n(startup.commands)} commands, process start to the first successful call\n\nCPU time in a fresh process (median of ${runs.length}); chrono-node loaded by the import: ${startup.median.chronoLoadedAtImport ? 'yes' : 'no'}; ${startup.median.lazyLoadedAfterCalls !== undefined ? `loaded after every call of the run, of chrono-node, re2js and @opentelemetry/api: ${startup.median.lazyLoadedAfterCalls.length === 0 ? 'none' : startup.median.lazyLoadedAfterCalls.join(', ')}; ` : ''}${startup.median.loadedModules} modules loaded by the imports.\n\n${table(
      ['phase', 'median', 'each process'],
      [
        phase('Node itself (before the script runs)', (run) => run.nodeMs),
        phase('imports (reflect-metadata, @toolwright/core and what it loads)', (run) => run.importsMs),
        ...(startup.median.coreImportMs !== undefined
          ? [
              phase(
                '- of which the peers (reflect-metadata, class-validator, class-transformer, tsyringe)',
                (run) => run.peerImportsMs ?? Number.NaN,
              ),
              phase('- of which @toolwright/core itself', (run) => run.coreImportMs ?? Number.NaN),
            ]
          : []),
        phase(`decorating ${n(startup.commands)} command and DTO classes`, (run) => run.decorateMs),
        phase('registering (ToolRegistry.from, new PersonaToolExecutor)', (run) => run.registerMs),
        phase('first call', (run) => run.firstCallMs, 1),
        phase('**total, process start to first successful call**', (run) => run.totalMs),
      ],
      ['l', 'r', 'l'],
    )}\n\nEarly calls (each timed alone; wall time unless said):\n\n${table(
      ['call', 'median of the processes', 'each process'],
      [
        phase('first call, wall', (run) => run.firstCallWallMs, 2),
        phase(`first call of each other command: p50`, (run) => run.early.firstOfEachP50WallMs, 2),
        phase(`first call of each other command: p99`, (run) => run.early.firstOfEachP99WallMs, 2),
        phase('second call of each other command: p99', (run) => run.early.secondP99WallMs, 2),
        phase('third call of each other command: p99', (run) => run.early.thirdP99WallMs, 2),
        phase(
          `**first three calls of every other command (${startup.median.early.calls}): p99**`,
          (run) => run.early.p99WallMs,
          2,
        ),
        phase('the same, CPU time: p99', (run) => run.early.p99CpuMs, 2),
        phase('the same: max', (run) => run.early.maxWallMs, 2),
      ],
      ['l', 'r', 'l'],
    )}`,
  );
  const memoryRows = memory.sizes.flatMap((size) =>
    memory.runs
      .filter((run) => run.tools === size)
      .map((run) => [
        n(size),
        formatBytes(run.decoratedBytesPerTool),
        formatBytes(run.registryBytesPerTool),
        formatBytes(run.afterCallsBytesPerTool),
        `**${formatBytes(run.beyondDecoratingBytesPerTool)}**`,
        `${run.heapUsedMiB.toFixed(0)} MiB`,
      ]),
  );
  sections.push(
    `${heading} Registering and memory, commands of their own shapes\n\n\`ToolRegistry.from\` for ${n(registryFrom.tools)} distinct class commands (decorated before): ${ms(registryFrom.medianCpuMs)} of CPU (median of ${registryFrom.runs.length} processes: ${registryFrom.runs.map((run) => run.fromCpuMs.toFixed(0)).join(', ')} ms; decorating them took ${registryFrom.runs.map((run) => run.decorateCpuMs.toFixed(0)).join(', ')} ms).\n\nHeap per command (heap used after gc, one process per row):\n\n${table(
      [
        'commands',
        'decorating',
        'ToolRegistry.from + executor',
        'two calls of each',
        'beyond decorating',
        'heap used at the end',
      ],
      memoryRows,
      ['r', 'r', 'r', 'r', 'r', 'r'],
    )}`,
  );
  sections.push(
    `${heading} Targets (issue 26)\n\n${table(
      ['target', 'measured', 'met'],
      realAppsTargets(report).map((entry) => [entry.target, entry.measured, entry.met ? 'yes' : '**no**']),
      ['l', 'l', 'l'],
    )}`,
  );
  return `${sections.join('\n\n')}\n`;
}
