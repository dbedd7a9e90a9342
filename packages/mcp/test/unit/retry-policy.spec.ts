import 'reflect-metadata';
import { DefinitionError } from '@toolwright/core';
import { DEFAULT_MCP_RETRY_POLICY, resolveRetryPolicy, retryDelays, systemClock } from '@toolwright/mcp';

describe('retry policy', () => {
  it('defaults to 3 attempts at 0 s, 2 s and 4 s', () => {
    expect(DEFAULT_MCP_RETRY_POLICY).toEqual({
      attempts: 3,
      initialDelayMs: 2_000,
      multiplier: 2,
      maxDelayMs: 30_000,
      jitter: 0,
      maxRestarts: 5,
      restartWindowMs: 60_000,
    });
    expect(retryDelays(resolveRetryPolicy())).toEqual([0, 2_000, 4_000]);
  });

  it('grows exponentially and stops at maxDelayMs', () => {
    expect(
      retryDelays(resolveRetryPolicy({ attempts: 7, initialDelayMs: 1_000, multiplier: 3, maxDelayMs: 20_000 })),
    ).toEqual([0, 1_000, 3_000, 9_000, 20_000, 20_000, 20_000]);
    expect(retryDelays(resolveRetryPolicy({ attempts: 1 }))).toEqual([0]);
  });

  it('shortens each delay by up to the jitter fraction, from the injected random source', () => {
    const policy = resolveRetryPolicy({ jitter: 0.5 });
    expect(retryDelays(policy, () => 0)).toEqual([0, 2_000, 4_000]);
    expect(retryDelays(policy, () => 0.5)).toEqual([0, 1_500, 3_000]);
    expect(retryDelays(resolveRetryPolicy({ jitter: 1 }), () => 0.999)).toEqual([0, 2, 4]);
  });

  it.each([
    [{ attempts: 0 }, 'connectMcpServers.retry.attempts: the value 0 is not an integer >= 1.'],
    [{ attempts: 1.5 }, 'connectMcpServers.retry.attempts: the value 1.5 is not an integer >= 1.'],
    [{ initialDelayMs: -1 }, 'connectMcpServers.retry.initialDelayMs: the value -1 is not a number >= 0.'],
    [{ multiplier: 0.5 }, 'connectMcpServers.retry.multiplier: the value 0.5 is not a number >= 1.'],
    [{ jitter: 2 }, 'connectMcpServers.retry.jitter: the value 2 is not a number from 0 to 1.'],
    [{ maxRestarts: -1 }, 'connectMcpServers.retry.maxRestarts: the value -1 is not an integer >= 0.'],
  ])('refuses %j', (overrides, message) => {
    expect(() => resolveRetryPolicy(overrides)).toThrow(DefinitionError);
    expect(() => resolveRetryPolicy(overrides)).toThrow(message);
  });

  it('the system clock sleeps, and wakes early when aborted', async () => {
    const started = performance.now();
    await systemClock.sleep(30);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    const controller = new AbortController();
    const sleeping = systemClock.sleep(60_000, controller.signal);
    controller.abort();
    await sleeping;
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
