import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RealAppsReport } from './real-apps';
import { renderReport } from './render';
import { renderRealApps } from './render-real-apps';
import type { BenchReport } from './results';

/**
 * `node bench/dist/readme.js [results.json] [performance.md]`: rewrites docs/performance.md's `## Real apps` section
 * (the first section) and its `## Benchmarks` section from a run's JSON (default bench/results/latest.json), so every
 * figure in them comes from a run. A `--real-apps` run's JSON (bench/results/real-apps.json) rewrites the Real apps
 * section only.
 */
const resultsFile = process.argv[2] ?? join(__dirname, '..', 'results', 'latest.json');
const readmeFile = process.argv[3] ?? join(__dirname, '..', '..', 'docs', 'performance.md');
const parsed = JSON.parse(readFileSync(resultsFile, 'utf8')) as BenchReport | RealAppsReport;
const report = 'roundRobin' in parsed ? undefined : parsed;
const realApps = 'roundRobin' in parsed ? parsed : parsed.realApps;

/** Replaces the section that starts at `heading` (up to the next `## ` heading), or inserts it before `before`. */
function replaceSection(page: string, heading: string, body: string, before: string): string {
  const section = `${heading}\n\n${body.trimEnd()}\n`;
  const start = page.indexOf(`\n${heading}\n`);
  if (start >= 0) {
    const next = page.indexOf('\n## ', start + heading.length + 1);
    return `${page.slice(0, start + 1)}${section}${next >= 0 ? page.slice(next) : ''}`;
  }
  const at = page.indexOf(`\n${before}\n`);
  if (at < 0) return `${page.replace(/\s*$/, '')}\n\n${section}`;
  return `${page.slice(0, at + 1)}${section}\n${page.slice(at + 1)}`;
}

let page = readFileSync(readmeFile, 'utf8');
if (realApps !== undefined) {
  page = replaceSection(
    page,
    '## Real apps',
    [
      'The real-apps suite (`bench/src/realistic/`, `bench/src/startup.ts`, `bench/src/real-apps.ts`): what an application with many',
      'commands of their own shapes sees, as opposed to one hot tool (the [Benchmarks](#benchmarks) below). Reproduce with',
      '`npm run bench` (all of it) or `node bench/dist/run.js --real-apps` (these cases only, about 5 minutes of CPU), then',
      '`node bench/dist/readme.js [results.json]` renders this section.',
      '',
      renderRealApps(realApps),
    ].join('\n'),
    '## What was done',
  );
}
if (report !== undefined) {
  page = replaceSection(
    page,
    '## Benchmarks',
    [
      "Issues 4 and 12's suite (`bench/`): the same 6-field DTO (an enum, an array of date-times, a bounded integer, a boolean, a bounded",
      'string, an array of `{email, optional}` objects) as a toolwright command (and as a JSON-Schema tool), a class-transformer + class-validator DTO, a zod 4',
      'schema, an ajv schema compiled from `registry.toJsonSchema()`, a hand-written check, a LangChain `tool()` and an AI SDK `tool()`,',
      'on the same inputs in one run (tinybench, medians). Reproduce with `npm run bench` (about 10 minutes here); it prints these tables',
      'and writes `bench/results/latest.json`, and `node bench/dist/readme.js` renders this section of docs/performance.md from that file.',
      'How it measures: [the benchmarks decision record](decisions/0004-benchmarks.md).',
      '',
      renderReport(report, { readme: true }),
    ].join('\n'),
    '## What was done',
  );
}
writeFileSync(readmeFile, page);
process.stdout.write(
  `${readmeFile}: ${[realApps && 'Real apps', report && 'Benchmarks'].filter(Boolean).join(' and ')} rendered from ${resultsFile}\n`,
);
