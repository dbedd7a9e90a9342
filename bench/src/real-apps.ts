import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';
import { loadavg } from 'node:os';
import { runChild } from './children';
import { isQuick, medianOf } from './harness';
import { formatBytes, formatNs, formatRatio } from './report';
import { REALISTIC_CONTENDERS, REALISTIC_SIZES, type RealisticResult } from './realistic/contenders';
import type { Target } from './results';

/**
 * Issue 26's measurements, "real apps": the round-robin case over distinct commands (each size in fresh processes,
 * `passes` interleaved passes), startup to the first call with 100 commands, `ToolRegistry.from` for 1,000 distinct
 * commands, and heap per command of its own shape at 1,000 and 10,000 commands; then the issue's targets. Every figure
 * is CPU time of the measured process (`process.cpuUsage()`), except the single-call latencies (wall time, and CPU).
 */

const STARTUP_COMMANDS = 100;
const REGISTRY_FROM_TOOLS = 1_000;
/** The sizes heap per command is measured at (a quick run skips 10,000: about a minute of CPU). */
const memorySizes = (): readonly number[] => (isQuick() ? [1_000] : [1_000, 10_000]);
/** Fresh processes per round-robin size: `BENCH_PASSES` (what `run.js --passes <n>` sets), else 2 (1 in a quick run). */
const passes = () => Number(process.env['BENCH_PASSES'] ?? (isQuick() ? 1 : 2));
const startupRuns = () => (isQuick() ? 3 : 7);
const registryFromRuns = () => (isQuick() ? 2 : 5);
/** Fresh processes per memory size: the 10,000-command run takes about a minute, so once. */
const memoryRuns = (size: number) => (isQuick() || size > 1_000 ? 1 : 3);

export interface StartupRun {
  readonly commands: number;
  /** `first-call` (the executor's default: each tool compiled on its first call) or `compile-all` (a server that calls `executor.compileAll()` at startup, as the Nest module does). Absent in runs from before both were measured. */
  readonly mode?: StartupMode;
  readonly nodeMs: number;
  readonly importsMs: number;
  /** Of `importsMs`: reflect-metadata, class-validator, class-transformer and tsyringe (core's peer dependencies). */
  readonly peerImportsMs?: number;
  /** Of `importsMs`: @toolwright/core and what it loads beyond its peers. */
  readonly coreImportMs?: number;
  /** Which of the lazily loaded packages (chrono-node, re2js, @opentelemetry/api) were loaded after the early calls. */
  readonly lazyLoadedAfterCalls?: readonly string[];
  readonly benchDataMs: number;
  readonly decorateMs: number;
  readonly registerMs: number;
  /** `executor.compileAll()` (every plan and the warm-up of the shared call path): 0 in the `first-call` mode. */
  readonly compileAllMs?: number;
  readonly firstCallMs: number;
  readonly totalMs: number;
  readonly firstCallWallMs: number;
  /** The first call's main-thread CPU, at most: `min(wall, process CPU)` (absent in older runs). */
  readonly firstCallMainThreadAtMostMs?: number;
  readonly loadedModules: number;
  readonly chronoLoadedAtImport: boolean;
  readonly early: {
    readonly calls: number;
    readonly p99WallMs: number;
    readonly p99CpuMs: number;
    /** The main thread's CPU, at most: p99 of each call's `min(wall, process CPU)` (absent in older runs). */
    readonly p99MainThreadAtMostMs?: number;
    /** The process's CPU over the early calls together (absent in older runs). */
    readonly totalCpuMs?: number;
    /** The main thread's CPU over the same span (`process.threadCpuUsage()`); null where Node has none. */
    readonly totalMainThreadCpuMs?: number | null;
    /** The call of the most process CPU (absent in older runs). */
    readonly maxCpuCall?: {
      readonly command: number;
      readonly call: number;
      readonly cpuMs: number;
      readonly mainThreadAtMostMs: number;
    };
    readonly maxWallMs: number;
    /** The CPU time of the slowest call by wall time (absent in older runs). */
    readonly maxWallCallCpuMs?: number;
    readonly firstOfEachP50WallMs: number;
    readonly firstOfEachP99WallMs: number;
    readonly secondP99WallMs: number;
    readonly thirdP99WallMs: number;
  };
}

/** The two startup configurations measured (`startup.js <commands> <mode>`). */
export type StartupMode = 'first-call' | 'compile-all';

/** One startup configuration's runs and their medians. */
export interface StartupMeasurement {
  readonly commands: number;
  readonly median: StartupRun;
  readonly runs: StartupRun[];
}

export interface RegistryFromRun {
  readonly tools: number;
  readonly decorateCpuMs: number;
  readonly fromCpuMs: number;
  readonly fromWallMs: number;
}

export interface MemoryDistinctRun {
  readonly tools: number;
  readonly decoratedBytesPerTool: number;
  readonly registryBytesPerTool: number;
  readonly afterCallsBytesPerTool: number;
  readonly beyondDecoratingBytesPerTool: number;
  readonly heapUsedMiB: number;
}

export interface RealAppsReport {
  readonly generatedAt: string;
  /** The commit of the checkout @toolwright/core was loaded from (`+dirty` with uncommitted changes). */
  readonly coreCommit: string;
  readonly loadAverageAtStart: number[];
  readonly loadAverageAtEnd: number[];
  readonly roundRobin: {
    readonly sizes: readonly number[];
    readonly passes: number;
    readonly contenders: typeof REALISTIC_CONTENDERS;
    /** size -> contender id -> median ns per call (median of the passes' medians) */
    readonly medianNs: Record<string, Record<string, number>>;
    /** size -> ratio name -> median over passes of the same-process ratio */
    readonly ratios: Record<string, Record<string, number>>;
    readonly runs: RealisticResult[];
  };
  /** The executor's default: each tool compiled on its first call. */
  readonly startup: StartupMeasurement;
  /** A server that calls `executor.compileAll()` at startup (the Nest module's default); absent in older runs. */
  readonly startupCompileAll?: StartupMeasurement;
  readonly registryFrom: { readonly tools: number; readonly medianCpuMs: number; readonly runs: RegistryFromRun[] };
  readonly memory: { readonly sizes: readonly number[]; readonly runs: MemoryDistinctRun[] };
  readonly durationSeconds: number;
}

/** The same-process ratios the issue's targets read (numerator / denominator contender ids). */
export const RATIOS: Record<string, readonly [string, string]> = {
  'class command / hand-written': ['class:tw', 'class:hand'],
  'JSON-Schema tool / ajv': ['json:tw', 'json:ajv'],
  'JSON-Schema tool / hand-written': ['json:tw', 'json:hand'],
  'class command / ajv': ['class:tw', 'class:ajv'],
  'class command / zod': ['class:tw', 'class:zod'],
  'CT+CV / class command': ['class:cv', 'class:tw'],
};

function coreCommit(): string {
  const directory = dirname(require.resolve('@toolwright/core/package.json'));
  const git = (...args: string[]) => spawnSync('git', ['-C', directory, ...args], { encoding: 'utf8' }).stdout.trim();
  const commit = git('rev-parse', '--short', 'HEAD');
  if (commit === '') return 'unknown';
  return git('status', '--porcelain', '--', '.') === '' ? commit : `${commit}+dirty`;
}

/** Medians of every numeric field (nested one level, as `early`); a list field is the union of the runs' lists. */
function medianRun<T extends object>(runs: readonly T[]): T {
  const first = runs[0]! as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(first)) {
    if (typeof value === 'number') out[key] = medianOf(runs.map((run) => (run as Record<string, number>)[key]!));
    else if (Array.isArray(value))
      out[key] = [...new Set(runs.flatMap((run) => (run as Record<string, unknown[]>)[key]!))].sort();
    else if (typeof value === 'object' && value !== null)
      out[key] = medianRun(runs.map((run) => (run as Record<string, object>)[key]!));
    else out[key] = value;
  }
  return out as T;
}

export function measureRealApps(log: (line: string) => void): RealAppsReport {
  const started = performance.now();
  const loadAverageAtStart = loadavg().map((value) => Math.round(value * 100) / 100);

  const runs: RealisticResult[] = [];
  for (let pass = 0; pass < passes(); pass++) {
    for (const size of REALISTIC_SIZES) {
      log(
        `real apps: ${size} distinct command${size === 1 ? '' : 's'} round-robin, every contender (pass ${pass + 1}/${passes()}) ...`,
      );
      runs.push(runChild<RealisticResult>('child.js', ['realistic', String(size)]));
    }
  }
  const medianNs: Record<string, Record<string, number>> = {};
  const ratios: Record<string, Record<string, number>> = {};
  for (const size of REALISTIC_SIZES) {
    const ofSize = runs.filter((run) => run.tools === size);
    const ns = (run: RealisticResult, id: string) => run.results.find((entry) => entry.id === id)!.medianNs;
    medianNs[size] = Object.fromEntries(
      REALISTIC_CONTENDERS.map(({ id }) => [id, medianOf(ofSize.map((run) => ns(run, id)))]),
    );
    ratios[size] = Object.fromEntries(
      Object.entries(RATIOS).map(([name, [top, bottom]]) => [
        name,
        medianOf(ofSize.map((run) => ns(run, top) / ns(run, bottom))),
      ]),
    );
  }

  log(
    `real apps: startup with ${STARTUP_COMMANDS} commands, ${startupRuns()} fresh processes per configuration (compile on the first call; compileAll() at startup), interleaved ...`,
  );
  const startupResults: StartupRun[] = [];
  const startupCompileAllResults: StartupRun[] = [];
  for (let run = 0; run < startupRuns(); run++) {
    startupResults.push(runChild<StartupRun>('startup.js', [String(STARTUP_COMMANDS), 'first-call']));
    startupCompileAllResults.push(runChild<StartupRun>('startup.js', [String(STARTUP_COMMANDS), 'compile-all']));
  }
  log(
    `real apps: ToolRegistry.from(${REGISTRY_FROM_TOOLS} distinct commands), ${registryFromRuns()} fresh processes ...`,
  );
  const registryFromResults = Array.from({ length: registryFromRuns() }, () =>
    runChild<RegistryFromRun>('child.js', ['registry-from', String(REGISTRY_FROM_TOOLS)]),
  );
  const memoryResults: MemoryDistinctRun[] = [];
  for (const size of memorySizes()) {
    log(`real apps: heap per command of its own shape, ${size} commands, ${memoryRuns(size)} fresh process(es) ...`);
    for (let run = 0; run < memoryRuns(size); run++)
      memoryResults.push(
        runChild<MemoryDistinctRun>(
          'child.js',
          ['memory-distinct', String(size)],
          ['--expose-gc', '--max-old-space-size=4096'],
        ),
      );
  }

  const startup = medianRun(startupResults);
  const startupCompileAll = medianRun(startupCompileAllResults);
  const registryFromCpuMs = medianOf(registryFromResults.map((run) => run.fromCpuMs));
  return {
    generatedAt: new Date().toISOString(),
    coreCommit: coreCommit(),
    loadAverageAtStart,
    loadAverageAtEnd: loadavg().map((value) => Math.round(value * 100) / 100),
    roundRobin: { sizes: REALISTIC_SIZES, passes: passes(), contenders: REALISTIC_CONTENDERS, medianNs, ratios, runs },
    startup: { commands: STARTUP_COMMANDS, median: startup, runs: startupResults },
    startupCompileAll: { commands: STARTUP_COMMANDS, median: startupCompileAll, runs: startupCompileAllResults },
    registryFrom: { tools: REGISTRY_FROM_TOOLS, medianCpuMs: registryFromCpuMs, runs: registryFromResults },
    memory: { sizes: memorySizes(), runs: memoryResults },
    durationSeconds: (performance.now() - started) / 1000,
  };
}

/**
 * Issue 26's targets, read from a run's figures (derived when rendered, so a run's JSON always shows the current
 * definitions). The latency targets are read in CPU time, which load from elsewhere on the machine hardly moves (wall
 * time beside).
 */
export function realAppsTargets(report: RealAppsReport): Target[] {
  const { medianNs, ratios } = report.roundRobin;
  const registryFromCpuMs = report.registryFrom.medianCpuMs;
  const memoryAt = (size: number) =>
    medianOf(report.memory.runs.filter((run) => run.tools === size).map((run) => run.beyondDecoratingBytesPerTool));
  const targets: Target[] = [];
  const ratioTarget = (size: number, name: string, limit: number, what: string, atLeast = false) => {
    const ratio = ratios[size]![name]!;
    const [top, bottom] = RATIOS[name]!;
    targets.push({
      target: `${what} ${atLeast ? '>=' : '<='} ${limit}x`,
      measured: `${formatRatio(ratio)} (${formatNs(medianNs[size]![top]!)} vs ${formatNs(medianNs[size]![bottom]!)} per call)`,
      met: atLeast ? ratio >= limit : ratio <= limit,
    });
  };
  ratioTarget(
    50,
    'class command / hand-written',
    1.3,
    '50 commands round-robin: class command / hand-written per shape',
  );
  ratioTarget(50, 'JSON-Schema tool / ajv', 1.0, '50 commands round-robin: JSON-Schema tool / ajv per schema');
  ratioTarget(
    200,
    'class command / hand-written',
    1.5,
    '200 commands round-robin: class command / hand-written per shape',
  );
  ratioTarget(1, 'class command / hand-written', 1.3, 'one hot tool: class command / hand-written');
  ratioTarget(1, 'JSON-Schema tool / hand-written', 1.3, 'one hot tool: JSON-Schema tool / hand-written');
  ratioTarget(1, 'CT+CV / class command', 5, 'one hot tool: class-transformer + class-validator / class command', true);
  // Each startup target for both configurations: the default, and a server that calls compileAll() at startup.
  const configurations = [
    { name: 'compile on first call (default)', startup: report.startup.median },
    ...(report.startupCompileAll === undefined
      ? []
      : [{ name: 'compileAll() at startup (Nest module default)', startup: report.startupCompileAll.median }]),
  ];
  for (const { name, startup } of configurations) {
    targets.push({
      target: `${report.startup.commands} commands: process start to the first successful call <= 250 ms CPU; ${name}`,
      measured: `${startup.totalMs.toFixed(0)} ms (Node ${startup.nodeMs.toFixed(0)}, imports ${startup.importsMs.toFixed(0)}, decorating ${startup.decorateMs.toFixed(0)}, registering ${startup.registerMs.toFixed(0)}${startup.mode === 'compile-all' && startup.compileAllMs !== undefined ? `, compileAll ${startup.compileAllMs.toFixed(1)}` : ''}, first call ${startup.firstCallMs.toFixed(1)})`,
      met: startup.totalMs <= 250,
    });
  }
  for (const { name, startup } of configurations)
    targets.push({
      target: `first call <= 2 ms (CPU time); ${name}`,
      measured: `${startup.firstCallMs.toFixed(2)} ms CPU (${startup.firstCallWallMs.toFixed(2)} ms wall)`,
      met: startup.firstCallMs <= 2,
    });
  for (const { name, startup } of configurations)
    targets.push({
      target: `p99 of the first three calls of every other command <= 1 ms (CPU time); ${name}`,
      measured: `${startup.early.p99CpuMs.toFixed(2)} ms CPU (${startup.early.p99WallMs.toFixed(2)} ms wall; ${startup.early.p99MainThreadAtMostMs === undefined ? '' : `main thread at most ${startup.early.p99MainThreadAtMostMs.toFixed(2)} ms; `}first calls of each p50 ${startup.early.firstOfEachP50WallMs.toFixed(2)} ms, p99 ${startup.early.firstOfEachP99WallMs.toFixed(2)} ms wall)`,
      met: startup.early.p99CpuMs <= 1,
    });
  targets.push({
    target: `ToolRegistry.from(${report.registryFrom.tools.toLocaleString('en-US')} distinct commands) <= 150 ms CPU`,
    measured: `${registryFromCpuMs.toFixed(0)} ms (median of ${report.registryFrom.runs.length} processes)`,
    met: registryFromCpuMs <= 150,
  });
  targets.push({
    target: 'heap per command of its own shape beyond decorating (registry, executor, two calls each) <= 8 KiB',
    measured: report.memory.sizes
      .map((size) => `${formatBytes(memoryAt(size))} at ${size.toLocaleString('en-US')}`)
      .join(', '),
    met: report.memory.sizes.every((size) => memoryAt(size) <= 8 * 1024),
  });
  return targets;
}
