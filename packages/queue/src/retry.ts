/**
 * Redis reads and writes the queue depends on, retried through a failover: while a Redis Cluster elects a new master
 * (CLUSTERDOWN, a closed connection, a client that gave up redirecting), a command can fail although the data is
 * still there a moment later. Such an error is no answer about the job, so it is retried with backoff until the
 * caller's deadline instead of being read as "no such job" or ending the job.
 */

/** The first wait after a failed attempt; each wait doubles, up to MAX_RETRY_DELAY_MS. */
const FIRST_RETRY_DELAY_MS = 50;
const MAX_RETRY_DELAY_MS = 1_000;

/**
 * Runs `operation` until it resolves or the deadline (a `performance.now()` time) passes: after a failure it waits 50 ms,
 * then twice as long each time (at most 1 s, never past the deadline). At the deadline the last error is thrown.
 * `onRetry` is told of each failure that is retried.
 */
export async function retryUntil<T>(
  operation: () => Promise<T>,
  deadline: number,
  onRetry?: (error: unknown) => void,
): Promise<T> {
  let delayMs = FIRST_RETRY_DELAY_MS;
  for (;;) {
    try {
      return await operation();
    } catch (error) {
      const remaining = deadline - performance.now();
      if (remaining <= 0) throw error;
      onRetry?.(error);
      await new Promise((resolve) => setTimeout(resolve, Math.min(delayMs, remaining)));
      delayMs = Math.min(delayMs * 2, MAX_RETRY_DELAY_MS);
    }
  }
}
