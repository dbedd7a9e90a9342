import type { Measurement } from './harness';
import type { RealAppsReport } from './real-apps';

/** One measured path in one case. */
export interface Row {
  readonly group: string;
  readonly id: string;
  readonly label: string;
  /** `e2e`: JSON text in, handler run (or message out); `check`: an already-parsed object in; `reference`: context only. */
  readonly scope: 'e2e' | 'check' | 'reference';
  readonly medianNs: number;
  readonly relativeMad: number;
  readonly samples: number;
  readonly batch: number;
  /** Ids of the baselines this row's ratios are against (same group, same scope). */
  readonly handId?: string;
  readonly ctcvId?: string;
}

export function row(
  group: string,
  label: string,
  scope: Row['scope'],
  measurement: Measurement,
  baselines: { handId?: string; ctcvId?: string } = {},
): Row {
  return {
    group,
    id: measurement.id,
    label,
    scope,
    medianNs: measurement.medianNs,
    relativeMad: measurement.relativeMad,
    samples: measurement.samples,
    batch: measurement.batch,
    ...baselines,
  };
}

/** Per-item costs of one path: median per call with both arrays empty, then per size and kind. */
export interface ArrayCosts {
  readonly id: string;
  readonly label: string;
  readonly baseNs: number;
  /** size -> median ns per call */
  readonly scalarNs: Record<string, number>;
  readonly nestedNs: Record<string, number>;
  /** size -> (median(size) - base) / size */
  readonly scalarPerItemNs: Record<string, number>;
  readonly nestedPerItemNs: Record<string, number>;
}

export interface RegistrySizeCosts {
  readonly id: string;
  readonly label: string;
  /** tools -> median ns per call */
  readonly perCallNs: Record<string, number>;
  /** tools -> perCall(tools) / perCall(1) */
  readonly ratioToOne: Record<string, number>;
  /** tools -> the median of each pass (a fresh process each) */
  readonly passesNs: Record<string, number[]>;
}

export interface BuildRun {
  readonly importCoreMs: number;
  readonly decorateMs: number;
  readonly registryFromMs: number;
  readonly firstCallMs: number;
}

export interface MemoryRun {
  readonly tools: number;
  readonly decoratedBytesPerTool: number;
  readonly registryBytesPerTool: number;
  readonly afterFirstCallsBytesPerTool: number;
  readonly totalBytesPerTool: number;
}

export interface MemoryMedian {
  readonly decoratedBytesPerTool: number;
  readonly registryBytesPerTool: number;
  readonly afterFirstCallsBytesPerTool: number;
  readonly totalBytesPerTool: number;
}

export interface Target {
  readonly target: string;
  readonly measured: string;
  readonly met: boolean | null;
  readonly note?: string;
}

/** bench/results/latest.json: everything one run measured, and what the tables and the README are rendered from. */
export interface BenchReport {
  readonly generatedAt: string;
  readonly machine: {
    readonly cpu: string;
    readonly cores: number;
    readonly memoryGiB: number;
    readonly os: string;
    readonly node: string;
    readonly loadAverageAtStart: number[];
    readonly loadAverageAtEnd: number[];
  };
  readonly versions: Record<string, string>;
  readonly toolwrightValidation: {
    readonly supported: boolean;
    readonly evidence: string;
    readonly modes: readonly string[];
  };
  readonly units: string;
  /** Classes in class-validator's storage in the main process (the valid, invalid, malformed and array cases). */
  readonly classValidatorClassesInMainProcess: string[];
  readonly rows: (Row & { readonly vsHandWritten?: number; readonly vsClassValidator?: number })[];
  readonly arrays: { readonly sizes: readonly number[]; readonly paths: ArrayCosts[] };
  readonly registrySize: {
    readonly sizes: readonly number[];
    readonly passes: number;
    readonly registeredClassValidatorClasses: Record<string, number>;
    readonly paths: RegistrySizeCosts[];
  };
  readonly build: {
    readonly tools: number;
    readonly median: {
      readonly importCoreMs: number;
      readonly decorateMs: number;
      readonly registryFromMs: number;
      readonly decorateAndBuildMs: number;
      readonly firstCallMs: number;
    };
    readonly runs: BuildRun[];
  };
  readonly memory: {
    readonly tools: number;
    readonly median: MemoryMedian;
    readonly runs: MemoryRun[];
    /** The same for JSON-Schema tools (absent in runs before issue 12). */
    readonly jsonSchema?: { readonly median: MemoryMedian; readonly runs: MemoryRun[] };
  };
  /** Issue 26's "real apps" measurements (absent in runs before it). */
  readonly realApps?: RealAppsReport;
  readonly targets: Target[];
  readonly notes: string[];
  readonly invalidMessages: Record<string, string>;
  readonly malformedTransformations: Record<string, string[]>;
  readonly durationSeconds: number;
}
