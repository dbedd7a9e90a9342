import 'reflect-metadata';
import { compilePatternMatcher } from '@toolwright/core/internal';

/**
 * `node bench/dist/pattern-engines.js`: the measurement behind docs/decisions/0007-linear-time-patterns.md. Times
 * issue 11's ReDoS patterns on the backtracking engine (at sizes that finish in seconds) and on the linear engine
 * (at the issue's sizes and far beyond), and the per-call cost of an ordinary pattern on both.
 */

function time(run: () => unknown): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

function perCall(run: () => unknown, iterations: number): number {
  for (let index = 0; index < 1_000; index++) run();
  const started = performance.now();
  for (let index = 0; index < iterations; index++) run();
  return ((performance.now() - started) * 1e6) / iterations;
}

const cases: ReadonlyArray<{
  pattern: string;
  subject: (size: number) => string;
  backtrackingSize: number;
  issueSize: number;
}> = [
  { pattern: '^(a|a)*$', subject: (size) => `${'a'.repeat(size)}b`, backtrackingSize: 24, issueSize: 29 },
  { pattern: '^(a|a?)+$', subject: (size) => `${'a'.repeat(size)}b`, backtrackingSize: 22, issueSize: 29 },
  { pattern: '^(a|aa)+$', subject: (size) => `${'a'.repeat(size)}b`, backtrackingSize: 36, issueSize: 46 },
  {
    pattern: '^\\d*\\d*\\d*\\d*\\d*$',
    subject: (size) => `${'1'.repeat(size)}a`,
    backtrackingSize: 100,
    issueSize: 3_000,
  },
  { pattern: '\\s+$', subject: (size) => `${' '.repeat(size)}a`, backtrackingSize: 20_000, issueSize: 200_000 },
];

const rows: string[] = [
  '| pattern | backtracking (size: ms) | linear, issue size (size: ms) | linear, 100,000 chars (ms) |',
  '|---|---|---|---|',
];
for (const { pattern, subject, backtrackingSize, issueSize } of cases) {
  const backtracking = new RegExp(pattern, 'u');
  const linear = compilePatternMatcher(pattern);
  const slow = time(() => backtracking.test(subject(backtrackingSize)));
  const fast = time(() => linear.test(subject(issueSize)));
  const large = time(() => linear.test(subject(100_000 - 1)));
  rows.push(
    `| \`${pattern}\` | ${backtrackingSize}: ${slow.toFixed(0)} | ${issueSize}: ${fast.toFixed(2)} | ${large.toFixed(1)} |`,
  );
}
console.log(rows.join('\n'));

const ordinary = '^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$';
const email = 'someone.name@example.com';
const native = new RegExp(ordinary, 'u');
const linear = compilePatternMatcher(ordinary);
console.log(
  `\nordinary pattern ${ordinary} on ${JSON.stringify(email)}: backtracking ${perCall(() => native.test(email), 200_000).toFixed(0)} ns/call, linear ${perCall(() => linear.test(email), 200_000).toFixed(0)} ns/call`,
);
console.log(
  `compile (uncached): ${
    time(() => {
      for (let index = 0; index < 200; index++) compilePatternMatcher(`${ordinary}${index}`);
    }) / 200
  } ms/pattern`,
);
