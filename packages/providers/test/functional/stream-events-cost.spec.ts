/**
 * Streamed call events stay linear: the worst cases of the bench at 256 KiB and at 1 MiB, streamed in 16-character
 * chunks through `streamCallEvents` (the executor checking each argument as it completes). Four times the text costs
 * about four times the CPU (a ratio measured within this process, so the machine's load cancels out); absolute times
 * are the bench's (`npm run bench:stream`).
 */
import 'reflect-metadata';
import { streamEventsWorstCases, streamedCpuMs } from '../support/stream-events-bench';

jest.setTimeout(120_000);

describe('the cost of streamed call events grows linearly with the text', () => {
  const small = streamEventsWorstCases(256 * 1024);
  const large = streamEventsWorstCases(1024 * 1024);
  it.each(small.map((worst, index) => [worst.label, index]))('%s', async (_label, index) => {
    // Warm the path (compilation, the tool's plan) before measuring.
    await streamedCpuMs(small[index]!.text, 16, 1, false);
    const four = await streamedCpuMs(large[index]!.text, 16, 3, false);
    const one = await streamedCpuMs(small[index]!.text, 16, 3, false);
    // Linear: about 4; a quadratic reader would be about 16.
    expect(four.ms / Math.max(one.ms, 1)).toBeLessThan(8);
    expect(four.events).toBeGreaterThanOrEqual(one.events);
  });
});
