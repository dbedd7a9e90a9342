/**
 * Handler timeouts without a timer per call: one timer per timeout length. Calls with the same `timeoutMs` expire in
 * the order they started, so each length keeps a queue and one timer armed for the oldest live deadline. Cancelling a
 * deadline (the handler settled) is a flag; while no deadline of a length is live its timer is unref'd, so it never
 * keeps the process alive, and it is not re-created for the next call.
 */
export interface Deadline {
  readonly at: number;
  /** False once it fired or was cancelled. */
  live: boolean;
  readonly expire: () => void;
}

class TimeoutBucket {
  private queue: Deadline[] = [];
  private head = 0;
  private live = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The deadline the timer is armed for, and the `setTimeout` that armed it (a test may install a fake clock). */
  private armedFor = 0;
  private armedWith: typeof setTimeout | undefined;

  constructor(private readonly timeoutMs: number) {}

  add(startedAt: number, expire: () => void): Deadline {
    const deadline: Deadline = { at: startedAt + this.timeoutMs, live: true, expire };
    this.queue.push(deadline);
    this.live++;
    if (this.timer === undefined || this.armedWith !== setTimeout) this.arm(deadline.at, this.timeoutMs);
    else if (this.live === 1) this.timer.ref();
    return deadline;
  }

  cancel(deadline: Deadline): void {
    if (!deadline.live) return;
    deadline.live = false;
    if (--this.live === 0) {
      this.queue = [];
      this.head = 0;
      this.timer?.unref();
    }
  }

  private arm(at: number, delayMs: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.armedFor = at;
    this.armedWith = setTimeout;
    this.timer = setTimeout(() => this.fire(), Math.max(1, delayMs));
    if (this.live === 0) this.timer.unref();
  }

  private fire(): void {
    this.timer = undefined;
    // A timer never fires before its delay, so at least the armed deadline has passed (whatever clock a test installs).
    const now = Math.max(performance.now(), this.armedFor);
    const expired: Deadline[] = [];
    while (this.head < this.queue.length) {
      const deadline = this.queue[this.head]!;
      if (deadline.live && deadline.at > now + 1) break;
      this.head++;
      if (deadline.live) {
        deadline.live = false;
        this.live--;
        expired.push(deadline);
      }
    }
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    } else {
      if (this.head > 1024 && this.head * 2 > this.queue.length) {
        this.queue = this.queue.slice(this.head);
        this.head = 0;
      }
      const next = this.queue[this.head]!;
      this.arm(next.at, next.at - now);
    }
    for (const deadline of expired) deadline.expire();
  }
}

const buckets = new Map<number, TimeoutBucket>();

/** Schedules `expire` at `startedAt + timeoutMs` (`startedAt` from `performance.now()`, read once by the caller). */
export function addDeadline(timeoutMs: number, startedAt: number, expire: () => void): Deadline {
  let bucket = buckets.get(timeoutMs);
  if (bucket === undefined) {
    bucket = new TimeoutBucket(timeoutMs);
    buckets.set(timeoutMs, bucket);
  }
  return bucket.add(startedAt, expire);
}

export function cancelDeadline(timeoutMs: number, deadline: Deadline): void {
  buckets.get(timeoutMs)?.cancel(deadline);
}
