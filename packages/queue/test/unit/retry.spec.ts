import { retryUntil } from '../../src/retry';

describe('retryUntil (reads and record writes through a failover)', () => {
  it('retries a failing operation with growing waits until it succeeds', async () => {
    const attempts: number[] = [];
    const retried: unknown[] = [];
    const started = performance.now();
    const value = await retryUntil(
      async () => {
        attempts.push(performance.now() - started);
        if (attempts.length < 4) throw new Error(`CLUSTERDOWN attempt ${attempts.length}`);
        return 'answer';
      },
      performance.now() + 10_000,
      (error) => retried.push(error),
    );
    expect(value).toBe('answer');
    expect(attempts).toHaveLength(4);
    expect(retried.map((error) => (error as Error).message)).toEqual([
      'CLUSTERDOWN attempt 1',
      'CLUSTERDOWN attempt 2',
      'CLUSTERDOWN attempt 3',
    ]);
    // Waits of 50, 100 and 200 ms (timers fire late under load, never early).
    expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(45);
    expect(attempts[2]! - attempts[1]!).toBeGreaterThanOrEqual(95);
    expect(attempts[3]! - attempts[2]!).toBeGreaterThanOrEqual(195);
  });

  it('throws the last error once the deadline has passed, without waiting past it', async () => {
    let attempts = 0;
    const started = performance.now();
    await expect(
      retryUntil(async () => {
        attempts++;
        throw new Error(`still down ${attempts}`);
      }, performance.now() + 300),
    ).rejects.toThrow(`still down`);
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(295);
    expect(took).toBeLessThan(3_000);
    expect(attempts).toBeGreaterThanOrEqual(3); // 0, 50, 150 ms, then 300 ms at the deadline
  });

  it('tries once when the deadline has already passed', async () => {
    let attempts = 0;
    await expect(
      retryUntil(async () => {
        attempts++;
        throw new Error('down');
      }, performance.now()),
    ).rejects.toThrow('down');
    expect(attempts).toBe(1);
  });
});
