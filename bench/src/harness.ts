import { Bench } from 'tinybench';

/**
 * A thin layer over tinybench. Each sample times a batch of calls sized to about `targetBatchUs` (so sub-microsecond
 * operations are not dominated by the timer) and reports the batch mean through tinybench's `overriddenDuration`.
 * The tasks of a group run in `rounds` interleaved passes, each with a share of the time budget, so a burst of load
 * from elsewhere on the machine hits every task of the group instead of one (each round starts at the next task, so no task
 * always runs first); the median is over all samples. With `clock: 'cpu'` a sample is the process's CPU time
 * (`process.cpuUsage()`: every thread, so V8's background compilation and GC count) instead of wall time.
 */

export interface TaskSpec {
  readonly id: string;
  /** One operation; may return a promise (awaited inside the timed batch). */
  readonly fn: () => unknown;
}

export interface Measurement {
  readonly id: string;
  /** Median time per operation, nanoseconds. */
  readonly medianNs: number;
  /** Median absolute deviation of the per-operation samples, as a fraction of the median. */
  readonly relativeMad: number;
  /** Samples (batches) the median is over. */
  readonly samples: number;
  /** Operations per sample. */
  readonly batch: number;
}

export interface MeasureOptions {
  /** Time budget per task over all rounds, ms. */
  readonly timeMs: number;
  readonly rounds: number;
  /** Minimum samples per task and round (slow tasks). */
  readonly minSamplesPerRound: number;
  readonly targetBatchUs: number;
  /** `'wall'` (default): performance.now(); `'cpu'`: process.cpuUsage(), user + system, of the whole process. */
  readonly clock?: 'wall' | 'cpu';
  /**
   * A fixed number of warm-up calls per task before calibration (the same for every task of the group), instead of the
   * time-based warm-up, which gives a faster task more calls; tinybench's own warm-up is then off.
   */
  readonly warmupCalls?: number;
  /** With `warmupCalls`: the warm-up stops after this much CPU time (ms) even if calls remain. */
  readonly warmupMaxMs?: number;
}

export const DEFAULT_MEASURE: MeasureOptions = { timeMs: 360, rounds: 3, minSamplesPerRound: 4, targetBatchUs: 40 };

/** `BENCH_QUICK=1` (what `run.js --quick` sets, children inherit it): a quarter of the time budgets, for smoke runs only. */
export const isQuick = (): boolean => process.env['BENCH_QUICK'] === '1';

/** Results are written here so the optimizer cannot drop a call whose value is unused. */
export let sink: unknown;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

interface Calibrated {
  readonly spec: TaskSpec;
  readonly async: boolean;
  readonly batch: number;
}

/** CPU time of the whole process so far, ms (user + system). */
export function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

const clockOf = (options: MeasureOptions): (() => number) =>
  options.clock === 'cpu' ? cpuMs : () => performance.now();

async function calibrate(spec: TaskSpec, options: MeasureOptions): Promise<Calibrated> {
  const first = spec.fn();
  const async = isThenable(first);
  sink = async ? await first : first;
  if (options.warmupCalls !== undefined) {
    const deadline = cpuMs() + (options.warmupMaxMs ?? Number.POSITIVE_INFINITY);
    for (let call = 1; call < options.warmupCalls; call++) {
      const result = spec.fn();
      sink = async ? await result : result;
      if ((call & 255) === 0 && cpuMs() > deadline) break;
    }
  }
  // Warm up (the first calls run unoptimized code), then estimate the cost of one call (on the clock the samples use).
  const clock = clockOf(options);
  const run = async (budgetMs: number, maxCalls: number) => {
    let calls = 0;
    const started = clock();
    let elapsed = 0;
    while (calls < maxCalls && (calls < 2 || elapsed < budgetMs)) {
      const result = spec.fn();
      sink = async ? await result : result;
      calls++;
      elapsed = clock() - started;
    }
    return (elapsed * 1000) / calls;
  };
  if (options.warmupCalls === undefined) await run(30, 20_000);
  const perCallUs = await run(20, 20_000);
  const batch = Math.max(1, Math.min(10_000, Math.round(options.targetBatchUs / perCallUs)));
  return { spec, async, batch };
}

function batched(task: Calibrated, clock: () => number) {
  const { fn } = task.spec;
  const n = task.batch;
  if (task.async) {
    return async () => {
      const started = clock();
      for (let index = 0; index < n; index++) sink = await fn();
      const duration = clock() - started;
      return { overriddenDuration: duration / n, overriddenIterationCost: duration };
    };
  }
  return () => {
    const started = clock();
    for (let index = 0; index < n; index++) sink = fn();
    const duration = clock() - started;
    return { overriddenDuration: duration / n, overriddenIterationCost: duration };
  };
}

function median(sorted: readonly number[]): number {
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The median of unsorted values (`NaN` for none). */
export function medianOf(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : median([...values].sort((a, b) => a - b));
}

export async function measure(
  specs: readonly TaskSpec[],
  options: MeasureOptions = DEFAULT_MEASURE,
): Promise<Map<string, Measurement>> {
  const calibrated: Calibrated[] = [];
  for (const spec of specs) calibrated.push(await calibrate(spec, options));
  const clock = clockOf(options);
  const fixedWarmup = options.warmupCalls !== undefined;
  const samples = new Map<string, number[]>(specs.map((spec) => [spec.id, []]));
  const budget = isQuick() ? options.timeMs / 4 : options.timeMs;
  for (let round = 0; round < options.rounds; round++) {
    const bench = new Bench({
      time: budget / options.rounds,
      iterations: options.minSamplesPerRound,
      warmup: !fixedWarmup,
      warmupTime: round === 0 ? 60 : 15,
      warmupIterations: round === 0 ? 3 : 1,
      retainSamples: true,
      throws: true,
    });
    for (let offset = 0; offset < calibrated.length; offset++) {
      const task = calibrated[(round + offset) % calibrated.length]!;
      bench.add(task.spec.id, batched(task, clock), { async: task.async });
    }
    await bench.run();
    for (const task of bench.tasks) {
      const result = task.result;
      if (result.state !== 'completed')
        throw new Error(`benchmark task ${task.name} did not complete (${result.state})`);
      // One push per sample: spreading a round's samples into push() overflows the stack when a fast case takes many.
      const taskSamples = samples.get(task.name)!;
      for (const sample of result.latency.samples ?? []) taskSamples.push(sample);
    }
  }
  const out = new Map<string, Measurement>();
  for (const task of calibrated) {
    const all = samples.get(task.spec.id)!.sort((a, b) => a - b);
    const mid = median(all);
    const mad = median(all.map((value) => Math.abs(value - mid)).sort((a, b) => a - b));
    out.set(task.spec.id, {
      id: task.spec.id,
      medianNs: mid * 1e6,
      relativeMad: mid > 0 ? mad / mid : 0,
      samples: all.length,
      batch: task.batch,
    });
  }
  return out;
}
