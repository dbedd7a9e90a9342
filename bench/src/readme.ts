import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderReport } from './render';
import type { BenchReport } from './results';

/**
 * `node bench/dist/readme.js [results.json] [performance.md]`: rewrites docs/performance.md's `## Benchmarks` section (from that heading to the
 * end of the file) from a run's JSON (default bench/results/latest.json), so every figure in it comes from a run.
 */
const resultsFile = process.argv[2] ?? join(__dirname, '..', 'results', 'latest.json');
const readmeFile = process.argv[3] ?? join(__dirname, '..', '..', 'docs', 'performance.md');
const report = JSON.parse(readFileSync(resultsFile, 'utf8')) as BenchReport;
const readme = readFileSync(readmeFile, 'utf8');
const HEADING = '## Benchmarks';
const start = readme.indexOf(`\n${HEADING}\n`);
const before = (start >= 0 ? readme.slice(0, start) : readme).replace(/\s*$/, '');
// The section ends at the next `## ` heading (other sections, such as the queue's, are kept as they are).
const next = start >= 0 ? readme.indexOf('\n## ', start + HEADING.length + 1) : -1;
const after = next >= 0 ? readme.slice(next) : '';
const section = [
  HEADING,
  '',
  "Issues 4 and 12's suite (`bench/`): the same 6-field DTO (an enum, an array of date-times, a bounded integer, a boolean, a bounded",
  'string, an array of `{email, optional}` objects) as a toolwright command (and as a JSON-Schema tool), a class-transformer + class-validator DTO, a zod 4',
  'schema, an ajv schema compiled from `registry.toJsonSchema()`, a hand-written check, a LangChain `tool()` and an AI SDK `tool()`,',
  'on the same inputs in one run (tinybench, medians). Reproduce with `npm run bench` (about 5 minutes here); it prints these tables',
  'and writes `bench/results/latest.json`, and `node bench/dist/readme.js` renders this section of docs/performance.md from that file.',
  'How it measures: [decision 0004](decisions/0004-benchmarks.md).',
  '',
  renderReport(report, { readme: true }).trimEnd(),
  '',
].join('\n');
writeFileSync(readmeFile, `${before}\n\n${section}${after}`);
process.stdout.write(`${readmeFile}: Benchmarks section rendered from ${resultsFile}\n`);
