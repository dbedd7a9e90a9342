/**
 * Writes the oracle's labels of the damaged calls (`damaged-calls.ts`, `reading-oracle.ts`) to the property test's
 * fixture, one line per seed from 0: run once, offline, after the generator or the oracle changes
 * (`node scripts/label-damaged-calls.mjs [count] [workers]`, which bundles this file). Slow on purpose: brute force.
 * Seeds `from` to `to` (excluded) go to `output`.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { damagedCall } from './damaged-calls';
import { labelDamagedCall, labelLine } from './reading-oracle';

export function labelDamagedCalls(
  from: number,
  to: number,
  output: string,
  progress: (done: number) => void = () => {},
): void {
  // JSON.parse throws for almost every candidate: no stack traces to capture.
  Error.stackTraceLimit = 0;
  writeFileSync(output, '');
  let lines: string[] = [];
  for (let seed = from; seed < to; seed++) {
    lines.push(labelLine(labelDamagedCall(damagedCall(seed))));
    if (seed % 1000 === 999 || seed === to - 1) {
      // Written as it goes: an interrupted run keeps what it labelled.
      appendFileSync(output, `${lines.join('\n')}\n`);
      lines = [];
      progress(seed + 1 - from);
    }
  }
}
