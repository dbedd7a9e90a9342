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
    `${heading} Round-robin over distinct commands\n\nN commands, each with parameter names of its own and a seeded mix of bounded strings, integers, numbers, booleans, enums, date-times, e-mail addresses, nested objects and arrays (\`bench/src/realistic/shapes.ts\`), called round-robin after every command has been called, each command's arguments different from one call to the next (16 texts per command). Every contender gets the same calls, is first checked (it must accept every call and refuse each command's invalid call), then gets the same number of warm-up calls (4,000 per command, at least 5,000, each contender stopping after 12 s of CPU if calls remain: only class-transformer + class-validator and zod at 200 commands do), so that each is measured in its steady state (the code each pipeline has per shape, the hand-written one's and ajv's, is optimized by V8 only after a few thousand calls of that shape); then interleaved rounds of CPU time, medians per call, ${roundRobin.passes === 1 ? 'one fresh process per size' : `${roundRobin.passes} fresh processes per size (passes interleaved across sizes), the median of their medians`}. The hand-written baseline is one generated straight-line function per shape: JSON.parse, then exactly the checks toolwright makes (no normalizing copy). A class command's e-mail fields carry \`@IsEmail()\` and a JSON-Schema tool's carry \`format: "email"\`, which toolwright enforces, so every baseline checks e-mail.\n\nClass commands (in brackets: x the hand-written check):\n\n${kindTable('class', 'class:hand')}\n\nJSON-Schema tools (in brackets: x ajv):\n\n${kindTable('json', 'json:ajv')}\n\nSame-process ratios (median over the passes):\n\n${table(
      ['ratio', ...sizes.map((size) => n(size))],
      Object.keys(roundRobin.ratios[sizes[0]!]!).map((name) => [
        name,
        ...sizes.map((size) => formatRatio(roundRobin.ratios[size]![name])),
      ]),
      ['l', ...sizes.map((): 'r' => 'r')],
    )}`,
  );
  // Startup: the executor's default (each tool compiled on its first call) and, beside it when the run measured it, a
  // server that calls compileAll() at startup (the Nest module's default), each phase a row, each process listed.
  const configurations = [
    { label: 'compile on first call (default)', measurement: startup },
    ...(report.startupCompileAll === undefined
      ? []
      : [{ label: 'compileAll() at startup (Nest module)', measurement: report.startupCompileAll }]),
  ];
  type Run = (typeof startup.runs)[number];
  const row = (label: string, pick: (run: Run) => number | undefined, digits = 0) => [
    label,
    ...configurations.flatMap(({ measurement }) => {
      const value = pick(measurement.median);
      return value === undefined
        ? ['-', '-']
        : [ms(value, digits), measurement.runs.map((run) => (pick(run) ?? Number.NaN).toFixed(digits)).join(', ')];
    }),
  ];
  const columns = ['phase', ...configurations.flatMap(({ label }) => [`${label}: median`, 'each process'])];
  const align = ['l' as const, ...configurations.flatMap(() => ['r' as const, 'l' as const])];
  const lazy = startup.median.lazyLoadedAfterCalls;
  sections.push(
    `${heading} Startup: ${n(startup.commands)} commands, process start to the first successful call\n\nCPU time in a fresh process (median of ${startup.runs.length} per configuration${configurations.length > 1 ? ', the two configurations in interleaved fresh processes' : ''}); chrono-node loaded by the import: ${startup.median.chronoLoadedAtImport ? 'yes' : 'no'}; ${lazy !== undefined ? `loaded after every call of the run, of chrono-node, re2js and @opentelemetry/api: ${[...new Set([...lazy, ...(report.startupCompileAll?.median.lazyLoadedAfterCalls ?? [])])].join(', ') || 'none'}; ` : ''}${startup.median.loadedModules} modules loaded by the imports. \`compileAll()\` compiles every tool's plan and warms the shared call path with a private synthetic tool; its CPU is part of the startup total.\n\n${table(
      columns,
      [
        row('Node itself (before the script runs)', (run) => run.nodeMs),
        row('imports (reflect-metadata, @toolwright/core and what it loads)', (run) => run.importsMs),
        ...(startup.median.coreImportMs !== undefined
          ? [
              row(
                '- of which the peers (reflect-metadata, class-validator, class-transformer, tsyringe)',
                (run) => run.peerImportsMs,
              ),
              row('- of which @toolwright/core itself', (run) => run.coreImportMs),
            ]
          : []),
        row(`decorating ${n(startup.commands)} command and DTO classes`, (run) => run.decorateMs),
        row('registering (ToolRegistry.from, new PersonaToolExecutor)', (run) => run.registerMs),
        ...(configurations.length > 1
          ? [
              row(
                '`executor.compileAll()` (every plan, and the warm-up; none by default)',
                (run) => run.compileAllMs ?? 0,
                1,
              ),
            ]
          : []),
        row('first call', (run) => run.firstCallMs, 1),
        row('**total, process start to first successful call**', (run) => run.totalMs),
      ],
      align,
    )}\n\nEarly calls (each timed alone; wall time unless said):\n\n${table(
      columns.map((column, index) => (index === 0 ? 'call' : column)),
      [
        row('first call, wall', (run) => run.firstCallWallMs, 2),
        row(`first call of each other command: p50`, (run) => run.early.firstOfEachP50WallMs, 2),
        row(`first call of each other command: p99`, (run) => run.early.firstOfEachP99WallMs, 2),
        row('second call of each other command: p99', (run) => run.early.secondP99WallMs, 2),
        row('third call of each other command: p99', (run) => run.early.thirdP99WallMs, 2),
        row(
          `**first three calls of every other command (${startup.median.early.calls}): p99**`,
          (run) => run.early.p99WallMs,
          2,
        ),
        row('the same, CPU time (the process: every thread): p99', (run) => run.early.p99CpuMs, 2),
        ...(startup.median.early.p99MainThreadAtMostMs !== undefined
          ? [
              row(
                'the same, main thread at most (min of wall and process CPU, each call): p99',
                (run) => run.early.p99MainThreadAtMostMs,
                2,
              ),
              row('all of them together, process CPU', (run) => run.early.totalCpuMs, 1),
              row(
                '- of which the main thread (`process.threadCpuUsage()`)',
                (run) => run.early.totalMainThreadCpuMs ?? undefined,
                1,
              ),
            ]
          : []),
        row('the same: max', (run) => run.early.maxWallMs, 2),
        ...(startup.median.early.maxWallCallCpuMs !== undefined
          ? [row('- that call: its CPU time', (run) => run.early.maxWallCallCpuMs, 2)]
          : []),
      ],
      align,
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
    `${heading} Targets (real apps)\n\n${table(
      ['target', 'measured', 'met'],
      realAppsTargets(report).map((entry) => [entry.target, entry.measured, entry.met ? 'yes' : '**no**']),
      ['l', 'l', 'l'],
    )}`,
  );
  return `${sections.join('\n\n')}\n`;
}
