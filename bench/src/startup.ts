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
 */

type Core = typeof import('@toolwright/core');

/** Packages core loads only when first needed (none of them by these commands' calls). */
const LAZY_PACKAGES = ['chrono-node', 're2js', '@opentelemetry/api'];

const cpuSince = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};
const cpuTotal = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

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
  if (!first.ok) throw new Error(`the first call was refused: ${first.error.message}`);
  const wallToFirstCallMs = process.uptime() * 1000;

  const early: { call: number; wallMs: number; cpuMs: number }[] = [];
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
      early.push({ call, wallMs, cpuMs: cpuSince(before) });
      if (!result.ok) throw new Error(`${shapes[index]!.name} refused its call: ${result.error.message}`);
    }
  }
  const ofCall = (call: number, key: 'wallMs' | 'cpuMs') =>
    early.filter((entry) => entry.call === call).map((entry) => entry[key]);
  const all = (key: 'wallMs' | 'cpuMs') => early.map((entry) => entry[key]);
  const slowest = early.reduce((worst, entry) => (entry.wallMs > worst.wallMs ? entry : worst));

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
    firstCallMs: cpuTotal(called) - cpuTotal(compiledAll),
    totalMs: cpuTotal(called),
    firstCallWallMs,
    wallToFirstCallMs,
    wallAtScriptStartMs: wallAtScriptStart,
    loadedModules,
    chronoLoadedAtImport,
    early: {
      calls: early.length,
      p99WallMs: percentile(all('wallMs'), 0.99),
      p99CpuMs: percentile(all('cpuMs'), 0.99),
      maxWallMs: Math.max(...all('wallMs')),
      // The slowest call by wall time and its CPU time: far less CPU than wall is time the process was not running.
      maxWallCallCpuMs: slowest.cpuMs,
      firstOfEachP50WallMs: percentile(ofCall(0, 'wallMs'), 0.5),
      firstOfEachP99WallMs: percentile(ofCall(0, 'wallMs'), 0.99),
      secondP99WallMs: percentile(ofCall(1, 'wallMs'), 0.99),
      thirdP99WallMs: percentile(ofCall(2, 'wallMs'), 0.99),
    },
  };
  process.stdout.write(`@@result ${JSON.stringify(result)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
