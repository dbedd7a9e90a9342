import type { McpClock } from '@toolwright/mcp';

/** A clock whose sleeps only end when the test says so; records every requested delay. */
export class FakeClock implements McpClock {
  readonly sleeps: number[] = [];
  private current = 0;
  private readonly pending: Array<{ readonly ms: number; readonly resolve: () => void }> = [];

  now(): number {
    return this.current;
  }

  random(): number {
    return 0.5;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    return new Promise((resolve) => {
      this.pending.push({ ms, resolve });
      signal?.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  /** Sleeps started and not yet ended. */
  get waiting(): number {
    return this.pending.length;
  }

  /** Ends the oldest pending sleep, moving the time forward by its delay. */
  advance(): void {
    const next = this.pending.shift();
    if (!next) throw new Error('no pending sleep');
    this.current += next.ms;
    next.resolve();
  }

  /** Moves the time forward without ending a sleep. */
  tick(ms: number): void {
    this.current += ms;
  }
}
