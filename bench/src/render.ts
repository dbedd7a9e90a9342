import { arrayTable, caseTable, formatBytes, formatNs, formatRatio, table } from './report';
import type { BenchReport } from './results';

const n = (value: number) => value.toLocaleString('en-US');

/** The tables of one run, as markdown: printed by run.js, and (with `readme`) the Benchmarks section body of docs/performance.md. */
export function renderReport(report: BenchReport, options: { readme?: boolean } = {}): string {
  const { machine } = report;
  const sections: string[] = [];
  const heading = '###';
  sections.push(
    `Run ${report.generatedAt.slice(0, 16).replace('T', ' ')} UTC on ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node.replace(/^v/, '')}. ` +
      `Load average (1/5/15 min) ${machine.loadAverageAtStart.join(' / ')} at the start and ${machine.loadAverageAtEnd.join(' / ')} at the end: with ${machine.cores} cores, more than ${machine.cores} means other work shared the CPU.`,
  );
  sections.push(
    `Versions: ${Object.entries(report.versions)
      .map(([name, version]) => `${name} ${version}`)
      .join(', ')}.`,
  );
  const validation = report.toolwrightValidation;
  sections.push(
    validation.supported
      ? `toolwright is measured with both validation paths: \`validation: 'compiled'\` (the default) and \`validation: 'reference'\` (class-transformer + class-validator).`
      : `toolwright is measured with its default validation only: ${validation.evidence}.`,
  );
  sections.push(
    `Medians per call; the valid, invalid, malformed and array cases run in one process, with ${report.classValidatorClassesInMainProcess.length} classes in class-validator's storage (${report.classValidatorClassesInMainProcess.join(', ')}). ` +
      '`x hand-written` and `x CT+CV` divide by the hand-written and class-transformer + class-validator rows of the same table and scope (JSON text in, or an already-parsed object in). Every pipeline row starts from the JSON text of the arguments: lookup, parse, (normalize,) validate, then the handler or the model-facing message.',
  );
  sections.push(`${heading} Valid call (6 fields, 3 slots, 3 attendees)\n\n${caseTable(report.rows, 'valid')}`);
  if (report.rows.some((entry) => entry.group === 'kinds')) {
    sections.push(
      `${heading} Valid call by tool kind and handler\n\nThe same call as a decorated class command and as a JSON-Schema tool (its schema is \`registry.toJsonSchema()\` of the command, so it has no developer \`@IsEmail()\`), with an \`async\` handler and a synchronous one, next to the ajv and zod pipelines running the synchronous handler; \`x hand-written\` divides by the hand-written pipeline running the same kind of handler, measured in the same group.\n\n${caseTable(report.rows, 'kinds')}`,
    );
  }
  sections.push(
    `${heading} Invalid call (3 errors), model-facing message rendered\n\n${caseTable(report.rows, 'invalid')}`,
  );
  sections.push(
    `${heading} Malformed call needing 3 fixes (snake_case key, number as string, array as JSON text)\n\nOnly toolwright and the hand-written pipeline repair it; zod, ajv and CT+CV get the hand-written fixer in front.\n\n${caseTable(report.rows, 'malformed')}`,
  );
  if (report.rows.some((entry) => entry.group === 'unreadable'))
    sections.push(
      `${heading} Unreadable text (just under 1 MiB of unclosed quotes, stray brackets and backslashes), refused\n\n${caseTable(report.rows, 'unreadable')}\n\nThe typical call with one comma left out: toolwright reads its one reading by search; the hand-written pipeline refuses it.\n\n${caseTable(report.rows, 'damaged')}`,
    );
  const sizes = report.arrays.sizes;
  sections.push(
    `${heading} Array items: per-item cost = (call with N items - call with both arrays empty) / N\n\n\`x hand-written\` divides the per-item cost at 1,000 items by the hand-written pipeline's.\n\nArray of date-times:\n\n${arrayTable(report.arrays.paths, 'scalar', sizes)}\n\nArray of \`{email, optional}\` objects:\n\n${arrayTable(report.arrays.paths, 'nested', sizes)}`,
  );
  const registry = report.registrySize;
  const last = registry.sizes[registry.sizes.length - 1]!;
  sections.push(
    `${heading} Registered tools: the same valid call with 1 to ${n(last)} tools registered\n\nA fresh process per size and pass (class-validator's storage is global). The class-command rows register N distinct decorated commands and call each once before measuring; the JSON-Schema row registers the bench's tool as a JSON-Schema tool among N - 1 generated JSON-Schema tools, each also called once; ${registry.passes === 1 ? 'one pass' : `${registry.passes} interleaved passes, the median of the pass medians shown, and each pass at ${n(last)} tools in the last column`}. The CT+CV row registers N plain DTO classes (one in five with a nested item class: ${registry.sizes.map((size) => `${n(registry.registeredClassValidatorClasses[size] ?? 0)}`).join(' / ')} classes in its storage).\n\n${table(
      [
        'path',
        ...registry.sizes.map((size) => `${n(size)} tool${size === 1 ? '' : 's'}`),
        `${n(last)} vs 1`,
        `${n(last)} tools, each pass`,
      ],
      registry.paths.map((entry) => [
        entry.label,
        ...registry.sizes.map((size) => formatNs(entry.perCallNs[size]!)),
        formatRatio(entry.ratioToOne[last]),
        (entry.passesNs[last] ?? []).map((value) => formatNs(value)).join(', '),
      ]),
      ['l', ...registry.sizes.map((): 'r' => 'r'), 'r', 'l'],
    )}`,
  );
  const build = report.build;
  sections.push(
    `${heading} Registry build, ${n(build.tools)} generated commands, fresh process (median of ${build.runs.length})\n\n${table(
      ['step', 'median', 'each process'],
      [
        [
          "require('@toolwright/core')",
          `${build.median.importCoreMs.toFixed(0)} ms`,
          build.runs.map((run) => run.importCoreMs.toFixed(0)).join(', '),
        ],
        [
          `decorate ${n(build.tools)} command + DTO classes`,
          `${build.median.decorateMs.toFixed(0)} ms`,
          build.runs.map((run) => run.decorateMs.toFixed(0)).join(', '),
        ],
        [
          `ToolRegistry.from(${n(build.tools)} commands)`,
          `${build.median.registryFromMs.toFixed(0)} ms`,
          build.runs.map((run) => run.registryFromMs.toFixed(0)).join(', '),
        ],
        [
          'first execute() afterwards',
          `${build.median.firstCallMs.toFixed(1)} ms`,
          build.runs.map((run) => run.firstCallMs.toFixed(1)).join(', '),
        ],
      ],
      ['l', 'r', 'l'],
    )}`,
  );
  const memory = report.memory;
  const memoryRows: string[][] = [
    [
      'decorated class commands: decorating the classes (toolwright records, class-validator / class-transformer metadata)',
      formatBytes(memory.median.decoratedBytesPerTool),
    ],
    ['decorated class commands: ToolRegistry.from (definitions)', formatBytes(memory.median.registryBytesPerTool)],
    [
      'decorated class commands: one execute() of each tool afterwards (compiled caches)',
      formatBytes(memory.median.afterFirstCallsBytesPerTool),
    ],
    ['**decorated class commands: total**', formatBytes(memory.median.totalBytesPerTool)],
  ];
  if (memory.jsonSchema) {
    memoryRows.push(
      [
        'JSON-Schema tools: registerJsonSchemaTool (definitions; the class-validator DTO is made only if the reference path needs it)',
        formatBytes(memory.jsonSchema.median.registryBytesPerTool),
      ],
      [
        'JSON-Schema tools: one execute() of each tool afterwards (compiled caches)',
        formatBytes(memory.jsonSchema.median.afterFirstCallsBytesPerTool),
      ],
      ['**JSON-Schema tools: total**', formatBytes(memory.jsonSchema.median.totalBytesPerTool)],
    );
  }
  sections.push(
    `${heading} Memory per registered tool (${n(memory.tools)} tools, heap used after gc, median of ${memory.runs.length} processes)\n\n${table(['step', 'per tool'], memoryRows, ['l', 'r'])}`,
  );
  if (report.notes.length > 0)
    sections.push(`${heading} Notes from the run\n\n${report.notes.map((note) => `- ${note}`).join('\n')}`);
  sections.push(
    `${heading} Targets (one hot tool)\n\n${table(
      ['target', 'measured', 'met'],
      report.targets.map((entry) => [
        entry.target,
        entry.measured + (entry.note ? `; ${entry.note}` : ''),
        entry.met ? 'yes' : '**no**',
      ]),
      ['l', 'l', 'l'],
    )}`,
  );
  const missed = report.targets.filter((entry) => !entry.met);
  if (missed.length > 0) {
    sections.push(
      `Missed in this run (${missed.length} of ${report.targets.length}):\n\n${missed.map((entry) => `- ${entry.target}: measured ${entry.measured}.`).join('\n')}\n\nWhere the time goes, and what is left to do: [above](#what-was-done).`,
    );
  }
  if (!options.readme) sections.push(`run took ${report.durationSeconds.toFixed(0)} s (without the TypeScript build)`);
  return `${sections.join('\n\n')}\n`;
}

export { formatNs, formatRatio };
