/**
 * Streamed call events at 1 MiB: one call whose arguments are 1 MiB, streamed in 16-character chunks (OpenAI Chat
 * chunk shape) through `streamCallEvents` with the executor checking each argument as it completes and running the
 * complete call, in milliseconds of CPU time: the events up to the complete call (the budget: 100 ms), and with the
 * executor running the complete call as well (the least of 5 rounds after one not counted: on a shared machine a
 * round may take a collection or another process's turn). Run: `npm run bench:stream`
 * (`-- --size 262144` for another size). CPU-bound and single-threaded; the load average is printed beside the times.
 */
import 'reflect-metadata';
import { loadavg } from 'node:os';
import { streamEventsWorstCases, streamedCpuMs } from '../support/stream-events-bench';

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(`--${name}`);
  return at < 0 ? undefined : args[at + 1];
};
const SIZE = Number(option('size') ?? 1024 * 1024);
const ROUNDS = Number(option('rounds') ?? 5);
const BUDGET_MS = 100;

async function main(): Promise<void> {
  console.log(
    `streamed call events at ${SIZE} characters, 16-character chunks; load average ${loadavg()[0]!.toFixed(1)}`,
  );
  console.log(
    'case'.padEnd(44) +
      'chars'.padStart(9) +
      'events'.padStart(9) +
      'stream ms'.padStart(11) +
      '+ execute ms'.padStart(14),
  );
  let over = 0;
  for (const worst of streamEventsWorstCases(SIZE)) {
    const { ms, events } = await streamedCpuMs(worst.text, 16, ROUNDS, false);
    const executed = await streamedCpuMs(worst.text, 16, ROUNDS, true);
    const flag = ms > BUDGET_MS ? '  over' : '';
    if (flag) over += 1;
    console.log(
      worst.label.padEnd(44) +
        String(worst.text.length).padStart(9) +
        String(events).padStart(9) +
        ms.toFixed(1).padStart(11) +
        executed.ms.toFixed(1).padStart(14) +
        flag,
    );
  }
  console.log(`${over} over ${BUDGET_MS} ms; load average ${loadavg()[0]!.toFixed(1)}`);
}

void main();
