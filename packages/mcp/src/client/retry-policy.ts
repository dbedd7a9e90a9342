import { DefinitionError } from '@toolwright/core';

/**
 * How connections to MCP servers are retried: the one place the backoff is configured (`connectMcpServers`'
 * `retry` option). The default is the issue's: 3 attempts, at 0 s, 2 s and 4 s.
 */
export interface McpRetryPolicy {
  /** Connection attempts per (re)connection, the first one included. Default 3. */
  readonly attempts: number;
  /** Delay before the second attempt. Default 2,000 ms. */
  readonly initialDelayMs: number;
  /** Each further delay is the previous one times this. Default 2. */
  readonly multiplier: number;
  /** Upper bound of one delay. Default 30,000 ms. */
  readonly maxDelayMs: number;
  /**
   * Random spread, 0..1: each delay is shortened by up to this fraction of itself (0, the default, keeps the
   * delays exact; 1 is "full jitter"). Spreads the reconnections of many clients after a shared outage.
   */
  readonly jitter: number;
  /** Lost connections re-established within `restartWindowMs` before the server is given up (degraded mode). Default 5. */
  readonly maxRestarts: number;
  /** The window `maxRestarts` counts in. Default 60,000 ms. */
  readonly restartWindowMs: number;
}

export const DEFAULT_MCP_RETRY_POLICY: McpRetryPolicy = Object.freeze({
  attempts: 3,
  initialDelayMs: 2_000,
  multiplier: 2,
  maxDelayMs: 30_000,
  jitter: 0,
  maxRestarts: 5,
  restartWindowMs: 60_000,
});

/** Time, as the connection manager sees it; injectable so tests run the backoff on a fake clock. */
export interface McpClock {
  /** Milliseconds, monotonic enough to measure windows. */
  now(): number;
  /** Resolves after `ms`, or early (without rejecting) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A number in [0, 1) for the jitter. */
  random(): number;
}

export const systemClock: McpClock = Object.freeze({
  now: () => performance.now(),
  sleep: (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted || ms <= 0) {
        resolve();
        return;
      }
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    }),
  random: () => Math.random(),
});

/** The policy with defaults filled in; a value that cannot work is a definition error naming the fix. */
export function resolveRetryPolicy(overrides: Partial<McpRetryPolicy> = {}): McpRetryPolicy {
  const policy: McpRetryPolicy = { ...DEFAULT_MCP_RETRY_POLICY, ...overrides };
  const check = (key: keyof McpRetryPolicy, valid: boolean, expected: string) => {
    if (!valid)
      throw new DefinitionError(`the value ${String(policy[key])} is not ${expected}.`, {
        target: 'connectMcpServers',
        property: `retry.${key}`,
      });
  };
  check('attempts', Number.isInteger(policy.attempts) && policy.attempts >= 1, 'an integer >= 1');
  check('initialDelayMs', Number.isFinite(policy.initialDelayMs) && policy.initialDelayMs >= 0, 'a number >= 0');
  check('multiplier', Number.isFinite(policy.multiplier) && policy.multiplier >= 1, 'a number >= 1');
  check('maxDelayMs', Number.isFinite(policy.maxDelayMs) && policy.maxDelayMs >= 0, 'a number >= 0');
  check('jitter', Number.isFinite(policy.jitter) && policy.jitter >= 0 && policy.jitter <= 1, 'a number from 0 to 1');
  check('maxRestarts', Number.isInteger(policy.maxRestarts) && policy.maxRestarts >= 0, 'an integer >= 0');
  check('restartWindowMs', Number.isFinite(policy.restartWindowMs) && policy.restartWindowMs >= 0, 'a number >= 0');
  return Object.freeze(policy);
}

/**
 * The delay before each attempt, the first one included (always 0): `[0, initial, initial * multiplier, ...]`,
 * each capped at `maxDelayMs` and shortened by the jitter. The default policy gives `[0, 2000, 4000]`.
 */
export function retryDelays(policy: McpRetryPolicy, random: () => number = Math.random): number[] {
  const delays = [0];
  for (let attempt = 2; attempt <= policy.attempts; attempt++) {
    const exact = Math.min(policy.maxDelayMs, policy.initialDelayMs * policy.multiplier ** (attempt - 2));
    delays.push(policy.jitter === 0 ? exact : Math.round(exact * (1 - policy.jitter * random())));
  }
  return delays;
}
