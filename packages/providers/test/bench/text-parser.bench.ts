/**
 * The text tool-call parser's worst cases at 1 MiB: each general case (reasoning, whitespace, nesting, ...) and each
 * dialect's (many calls, openers without closers, deep nesting, blanks inside), parsed whole and streamed in
 * 16-character pieces, in milliseconds of CPU time: the least of a few rounds (5 unless `--rounds` says), after one
 * round not counted (the first parse of a dialect's text in a process also compiles its code). Each case's text is
 * made just before it runs, so no run pays for a heap holding every other case's megabyte. Run: `npm run bench:text`
 * (`-- --size 262144` for another size, `-- --only gpt-oss` to run the cases whose label holds a word).
 * Times are CPU-bound and single-threaded; the load average is printed beside them.
 */
import 'reflect-metadata';
import { loadavg } from 'node:os';
import {
  HARNESS_TOOLS,
  dialectWorstCases,
  generalWorstCases,
  minCpuMs,
  parseBothWays,
  rendererLabel,
} from '../support/text-parser-harness';
import { RENDERERS } from '../support/text-dialects';

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(`--${name}`);
  return at < 0 ? undefined : args[at + 1];
};
const SIZE = Number(option('size') ?? 1024 * 1024);
const ONLY = option('only');
const ROUNDS = Number(option('rounds') ?? 5);
const BUDGET_MS = 100;

const cases = [
  ...generalWorstCases().map((worst) => ({ label: worst.label, text: () => worst.text(SIZE) })),
  ...RENDERERS.flatMap((renderer) =>
    dialectWorstCases(renderer).map((worst) => ({
      label: `${rendererLabel(renderer)}: ${worst.label}`,
      text: () => worst.text(SIZE),
    })),
  ),
].filter((entry) => ONLY === undefined || entry.label.includes(ONLY));

console.log(`text parser worst cases at ${SIZE} characters; load average ${loadavg()[0]!.toFixed(1)}`);
console.log('case'.padEnd(52) + 'chars'.padStart(9) + 'whole ms'.padStart(10) + 'streamed ms'.padStart(13));
let over = 0;
let slowestWhole = { label: '', ms: 0 };
let slowestStreamed = { label: '', ms: 0 };
for (const entry of cases) {
  const text = entry.text();
  const run = parseBothWays(text, 16, { tools: HARNESS_TOOLS });
  run.whole();
  run.streamed();
  const whole = minCpuMs(run.whole, ROUNDS);
  const streamed = minCpuMs(run.streamed, ROUNDS);
  if (whole > slowestWhole.ms) slowestWhole = { label: entry.label, ms: whole };
  if (streamed > slowestStreamed.ms) slowestStreamed = { label: entry.label, ms: streamed };
  const flag = whole > BUDGET_MS || streamed > BUDGET_MS ? '  over' : '';
  if (flag) over += 1;
  console.log(
    entry.label.slice(0, 51).padEnd(52) +
      String(text.length).padStart(9) +
      whole.toFixed(1).padStart(10) +
      streamed.toFixed(1).padStart(13) +
      flag,
  );
}
console.log(
  `${cases.length} cases; slowest whole ${slowestWhole.ms.toFixed(1)} ms (${slowestWhole.label}), slowest streamed ` +
    `${slowestStreamed.ms.toFixed(1)} ms (${slowestStreamed.label}); ${over} over ${BUDGET_MS} ms; ` +
    `load average ${loadavg()[0]!.toFixed(1)}`,
);
