/**
 * A record of which jobs have started their handler, kept outside Redis: the application's own database (a table with
 * a unique key, an idempotency-key store). With it, a worker runs a job's handler at most once even against someone
 * who can write and delete Redis keys (who can otherwise replay a captured job until its signed expiry, by deleting its
 * run record and putting it back). The price: a job whose worker died while its handler ran is not run again (at most
 * once instead of at least once); `TIMEOUT` and `SERVICE_UNAVAILABLE` retries still run, since the worker releases
 * the claim of an attempt it retries.
 */
export interface RunLedger {
  /**
   * Records that the run `key` starts (`expiresAt`: the job's signed expiry, in epoch milliseconds; a record may be
   * dropped after it, since the worker refuses the job by then anyway). Resolves `true` for the first claim of a key and
   * `false` for any later one, atomically: of concurrent claims of one key, one gets `true` (an insert into a unique
   * column, `INSERT ... ON CONFLICT DO NOTHING`). A rejection sends the job back to the queue; nothing runs.
   */
  claim(key: string, expiresAt: number): Promise<boolean>;
  /** Gives a claim up: the attempt ended before its outcome counted (it is retried, or its worker shuts down). */
  release(key: string): Promise<void>;
}

/**
 * The key a job's run has in the ledger: the job id and its signature's MAC (a captured job put back, under any job
 * id, brings its own MAC; an unsigned job has only its id).
 */
export function runLedgerKey(jobId: string, mac: string): string {
  return mac === '' ? `job:${jobId}` : `job:${jobId}:${mac}`;
}
