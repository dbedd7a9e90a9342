// The first statement: the CPU time Node used before this script ran (bootstrap, module loader). No import above it.
const atScriptStart = process.cpuUsage();
// Wall time from process.uptime() and process.hrtime, never the `performance` global: Node loads perf_hooks on its
// first use (about 2 ms of CPU), which must fall where core first needs it, not in this script's bookkeeping.
const wallAtScriptStart = process.uptime() * 1000;
const wallNow = () => Number(process.hrtime.bigint()) / 1e6;

/**
 * `node startup.js <commands> [first-call|compile-all]` (issue 26): process start to the first successful call with
 * <commands> class commands of distinct shapes, in CPU time (`process.cpuUsage()`, every thread) with its breakdown:
 * Node itself (before this script's first statement), imports (reflect-metadata and core's peer dependencies, then
 * @toolwright/core and what else it loads), decorating the classes, registering (`ToolRegistry.from` and the
 * executor), `executor.compileAll()` (`compile-all` only: what a server that wants flat latency from its first request
 * does at startup, as the Nest module does; every plan and the warm-up of the shared call path), the first call. The
 * default, `first-call`, is an executor with its default options (each tool compiled on its first call). Then the early calls: the first three calls of
 * every other command, round-robin (every other command once, then a second time, then a third), each timed alone.
 * Prints one line `@@result <json>`; run.js runs it in several fresh processes and takes medians.
 *
 * Two CPU figures per call, and which is which (ADR 0035): the process's (`process.cpuUsage()`, issue 26's figure),
 * which also counts V8's background threads (the concurrent optimizing compiler, the collector's helpers) working while
 * the call runs, and the main thread's, bounded: a call cannot use more of the main thread than its wall time, nor more
 * than the process's CPU time (exact for the calling thread), so `min(wall, process CPU)` is an upper bound of the
 * call's main-thread CPU. Node's own per-thread counter (`process.threadCpuUsage()`) moves in scheduler ticks (4 ms on
 * this kernel, unless the thread is switched out), too coarse for a call of 0.1 ms; over the 297 early calls together
 * it is exact to a tick, so it gives their main-thread total beside the process's.
 */

type Core = typeof import('@toolwright/core');

/** Packages core loads only when first needed (none of them by these commands' calls). */
const LAZY_PACKAGES = ['chrono-node', 're2js', '@opentelemetry/api'];

const cpuSince = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};
const cpuTotal = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;
/** The main thread's CPU time so far (`process.threadCpuUsage()`, Node 22.19+), or undefined where Node has none. */
const threadCpu = (): number | undefined => {
  const read = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage;
  return read === undefined ? undefined : cpuTotal(read.call(process));
};

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? '100');
  const mode = process.argv[3] ?? 'first-call';
  if (!Number.isInteger(count) || count < 2 || (mode !== 'first-call' && mode !== 'compile-all'))
    throw new Error(`usage: startup.js <commands >= 2> [first-call|compile-all]`);

  const beforeImports = process.cpuUsage();
  require('reflect-metadata');
  // core's peer dependencies first, timed apart: an application that mixes in class-validator's decorators (this one's
  // e-mail fields carry `@IsEmail()`) loads class-validator itself, whatever core does.
  require('class-validator');
  require('class-transformer');
  require('tsyringe');
  const peersImported = process.cpuUsage();
  const core = require('@toolwright/core') as Core;
  const imported = process.cpuUsage();
  const loadedModules = Object.keys(require.cache).length;
  const chronoLoadedAtImport = Object.keys(require.cache).some((path) => path.includes('/chrono-node/'));

  const { argumentVariants, shapeSpecs } = require('./realistic/shapes') as typeof import('./realistic/shapes');
  const { classCommand } = require('./realistic/toolwright') as typeof import('./realistic/toolwright');
  // The shapes and the calls' argument texts are the benchmark's data, not the application's startup: made here and
  // left out of every phase (they are in the total, and cost well under a millisecond).
  const shapes = shapeSpecs(count);
  const variants = shapes.map((shape) => argumentVariants(shape, 3));
  const dataReady = process.cpuUsage();
  const commands = shapes.map(classCommand);
  const decorated = process.cpuUsage();

  const registry = core.ToolRegistry.from(commands, { logger: core.silentLogger });
  const executor = new core.PersonaToolExecutor(registry, { logger: core.silentLogger });
  const registered = process.cpuUsage();
  if (mode === 'compile-all') executor.compileAll();
  const compiledAll = process.cpuUsage();

  const firstWall = wallNow();
  const first = await executor.execute({ id: 'c0', name: shapes[0]!.name, arguments: variants[0]![0]! });
  const firstCallWallMs = wallNow() - firstWall;
  const called = process.cpuUsage();
  const firstCallMs = cpuTotal(called) - cpuTotal(compiledAll);
  if (!first.ok) throw new Error(`the first call was refused: ${first.error.message}`);
  const wallToFirstCallMs = process.uptime() * 1000;

  const early: { command: number; call: number; wallMs: number; cpuMs: number; mainThreadAtMostMs: number }[] = [];
  const earlyStart = process.cpuUsage();
  const earlyThreadStart = threadCpu();
  for (let call = 0; call < 3; call++) {
    for (let index = 1; index < count; index++) {
      const before = process.cpuUsage();
      const started = wallNow();
      const result = await executor.execute({
        id: `c${index}_${call}`,
        name: shapes[index]!.name,
        arguments: variants[index]![call]!,
      });
      const wallMs = wallNow() - started;
      const cpuMs = cpuSince(before);
      early.push({ command: index, call, wallMs, cpuMs, mainThreadAtMostMs: Math.min(wallMs, cpuMs) });
      if (!result.ok) throw new Error(`${shapes[index]!.name} refused its call: ${result.error.message}`);
    }
  }
  const earlyCpuMs = cpuSince(earlyStart);
  const earlyThreadEnd = threadCpu();
  type Figure = 'wallMs' | 'cpuMs' | 'mainThreadAtMostMs';
  const ofCall = (call: number, key: Figure) => early.filter((entry) => entry.call === call).map((entry) => entry[key]);
  const all = (key: Figure) => early.map((entry) => entry[key]);
  const slowest = early.reduce((worst, entry) => (entry.wallMs > worst.wallMs ? entry : worst));
  const mostCpu = early.reduce((worst, entry) => (entry.cpuMs > worst.cpuMs ? entry : worst));

  const paths = Object.keys(require.cache);
  const lazyLoadedAfterCalls = LAZY_PACKAGES.filter((name) =>
    paths.some((path) => path.includes(`/node_modules/${name}/`)),
  );
  const result = {
    commands: count,
    mode,
    lazyLoadedAfterCalls,
    nodeMs: cpuTotal(atScriptStart),
    importsMs: cpuTotal(imported) - cpuTotal(beforeImports),
    peerImportsMs: cpuTotal(peersImported) - cpuTotal(beforeImports),
    coreImportMs: cpuTotal(imported) - cpuTotal(peersImported),
    benchDataMs: cpuTotal(dataReady) - cpuTotal(imported),
    decorateMs: cpuTotal(decorated) - cpuTotal(dataReady),
    registerMs: cpuTotal(registered) - cpuTotal(decorated),
    compileAllMs: cpuTotal(compiledAll) - cpuTotal(registered),
    firstCallMs,
    totalMs: cpuTotal(called),
    firstCallWallMs,
    /** The first call's main-thread CPU, at most (`min(wall, process CPU)`). */
    firstCallMainThreadAtMostMs: Math.min(firstCallWallMs, firstCallMs),
    wallToFirstCallMs,
    wallAtScriptStartMs: wallAtScriptStart,
    loadedModules,
    chronoLoadedAtImport,
    early: {
      calls: early.length,
      p99WallMs: percentile(all('wallMs'), 0.99),
      p99CpuMs: percentile(all('cpuMs'), 0.99),
      /** The main thread's CPU, at most: p99 of each call's `min(wall, process CPU)`. */
      p99MainThreadAtMostMs: percentile(all('mainThreadAtMostMs'), 0.99),
      /** The process's CPU over the early calls together (the loop's bookkeeping included: a few microseconds a call). */
      totalCpuMs: earlyCpuMs,
      /** The main thread's CPU over the same span (`process.threadCpuUsage()`, exact to a tick); null where Node has none. */
      totalMainThreadCpuMs:
        earlyThreadStart === undefined || earlyThreadEnd === undefined ? null : earlyThreadEnd - earlyThreadStart,
      maxWallMs: Math.max(...all('wallMs')),
      // The slowest call by wall time and its CPU time: far less CPU than wall is time the process was not running.
      maxWallCallCpuMs: slowest.cpuMs,
      firstOfEachP50WallMs: percentile(ofCall(0, 'wallMs'), 0.5),
      firstOfEachP99WallMs: percentile(ofCall(0, 'wallMs'), 0.99),
      secondP99WallMs: percentile(ofCall(1, 'wallMs'), 0.99),
      thirdP99WallMs: percentile(ofCall(2, 'wallMs'), 0.99),
      /** The call of the most process CPU: which command, which of its three calls, and its main thread at most. */
      maxCpuCall: {
        command: mostCpu.command,
        call: mostCpu.call + 1,
        cpuMs: mostCpu.cpuMs,
        mainThreadAtMostMs: mostCpu.mainThreadAtMostMs,
      },
    },
  };
  process.stdout.write(`@@result ${JSON.stringify(result)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
