import 'reflect-metadata';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { ToolRegistry, silentLogger } from '@toolwright/core';
import { runChild } from './children';
import { isQuick, medianOf } from './harness';
import { runMainCases } from './main-cases';
import { formatBytes, formatNs, formatRatio } from './report';
import { measureRealApps } from './real-apps';
import { renderReport } from './render';
import { renderRealApps } from './render-real-apps';
import type { BenchReport, BuildRun, MemoryRun, RegistrySizeCosts, Row, Target } from './results';
import { ARRAY_ITEM_TARGET_SIZE, ARRAY_SIZES } from './scenario/inputs';
import { ScheduleMeetingCommand } from './scenario/toolwright';
import { detectValidationOption, modeLabel, modesToMeasure } from './toolwright-setup';

/**
 * `npm run bench`: issue 26's real-apps cases first (distinct commands round-robin, startup, registering and memory of
 * commands of their own shapes), then every case of issues 4 and 12, in one run. Prints markdown tables (medians,
 * ratios to the baselines of the same run) and writes bench/results/latest.json. Options:
 *   --quick         a quarter of the time budgets and fewer fresh processes (a smoke run; never for the README)
 *   --real-apps     issue 26's cases only (about 5 minutes; writes bench/results/real-apps.json unless --out is given)
 *   --passes <n>    fresh processes per round-robin size (default 2; 1 on a machine too busy for a long run)
 *   --out <file>    where the JSON goes (default bench/results/latest.json)
 */

const REGISTRY_SIZES = [1, 1_000, 10_000] as const;
const LARGEST_REGISTRY = REGISTRY_SIZES[REGISTRY_SIZES.length - 1]!;
const REGISTRY_PASSES = () => (isQuick() ? 1 : 3);
const BUILD_TOOLS = 1_000;
const BUILD_RUNS = () => (isQuick() ? 2 : 5);
const MEMORY_TOOLS = 1_000;
const MEMORY_RUNS = () => (isQuick() ? 1 : 3);
const PACKAGES = [
  'typescript',
  'tinybench',
  'class-validator',
  'class-transformer',
  'zod',
  'ajv',
  '@langchain/core',
  'ai',
  '@ai-sdk/provider-utils',
  'reflect-metadata',
  'tsyringe',
];

const started = performance.now();
const args = process.argv.slice(2);
if (args.includes('--quick')) process.env['BENCH_QUICK'] = '1';
const passesIndex = args.indexOf('--passes');
if (passesIndex >= 0) {
  const passes = Number(args[passesIndex + 1]);
  if (!Number.isInteger(passes) || passes < 1) throw new Error('--passes takes a whole number >= 1');
  process.env['BENCH_PASSES'] = String(passes);
}
const outIndex = args.indexOf('--out');
const realAppsOnly = args.includes('--real-apps');
const outFile =
  outIndex >= 0 && args[outIndex + 1]
    ? args[outIndex + 1]!
    : join(__dirname, '..', 'results', realAppsOnly ? 'real-apps.json' : 'latest.json');
const log = (line: string) =>
  process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(3)}s] ${line}\n`);

function packageVersion(name: string): string {
  let directory = __dirname;
  for (;;) {
    const candidate = join(directory, 'node_modules', name, 'package.json');
    if (existsSync(candidate)) return (JSON.parse(readFileSync(candidate, 'utf8')) as { version: string }).version;
    const parent = dirname(directory);
    if (parent === directory) return 'not installed';
    directory = parent;
  }
}

function child<T>(mode: string, count: number, nodeFlags: string[] = []): T {
  return runChild<T>('child.js', [mode, String(count)], nodeFlags);
}

const median = medianOf;

interface ChildMeasurement {
  readonly id: string;
  readonly label: string;
  readonly medianNs: number;
  readonly relativeMad: number;
  readonly samples: number;
}

function write(text: string, value: unknown): void {
  process.stdout.write(text);
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, `${JSON.stringify(value, null, 2)}\n`);
  log(`wrote ${outFile}`);
}

async function main(): Promise<void> {
  if (realAppsOnly) {
    const realApps = measureRealApps(log);
    write(`## Real apps\n\n${renderRealApps(realApps)}`, realApps);
    return;
  }
  const realApps = measureRealApps(log);
  const machine = {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    os: `${platform()} ${release()}`,
    node: process.version,
    loadAverageAtStart: loadavg().map((value) => Math.round(value * 100) / 100),
  };
  const versions = Object.fromEntries(PACKAGES.map((name) => [name, packageVersion(name)]));
  const support = detectValidationOption(ToolRegistry.from([ScheduleMeetingCommand], { logger: silentLogger }));
  const modes = modesToMeasure(support);
  const primary = modes[0]!;
  log(`node ${process.version} on ${machine.cpu} x${machine.cores}; load ${machine.loadAverageAtStart.join(' ')}`);
  log(
    support.supported
      ? `measuring toolwright with validation: 'compiled' and 'reference' (${support.evidence})`
      : `measuring toolwright's default validation only: ${support.evidence}`,
  );

  const main = await runMainCases(modes, log);
  if (main.problems.length > 0) {
    for (const problem of main.problems) process.stderr.write(`PROBLEM: ${problem}\n`);
    throw new Error('a path did not behave as its case requires; nothing was timed');
  }

  for (const note of main.notes) log(`note: ${note}`);

  // Registry size: one fresh process per size, so class-validator's global storage holds exactly those classes. The
  // sizes are run in REGISTRY_PASSES interleaved passes; each figure is the median of the passes' medians (one pass
  // disturbed by load from elsewhere does not decide it), and every pass is in the JSON and the table.
  const registrySize: RegistrySizeCosts[] = [];
  const registeredClasses: Record<string, number> = {};
  const perSize = new Map<string, Map<number, number[]>>();
  const labels = new Map<string, string>();
  for (let pass = 0; pass < REGISTRY_PASSES(); pass++) {
    for (const size of REGISTRY_SIZES) {
      log(
        `registry size ${size} (pass ${pass + 1}/${REGISTRY_PASSES()}): class commands + hand-written, JSON-Schema tools, then CT+CV, each in a fresh process ...`,
      );
      const tw = child<{ results: ChildMeasurement[] }>('scale-tw', size);
      const json = child<{ results: ChildMeasurement[] }>('scale-json', size);
      const cv = child<{ results: ChildMeasurement[]; registeredClasses: number }>('scale-cv', size);
      registeredClasses[size] = cv.registeredClasses;
      for (const result of [...tw.results, ...json.results, ...cv.results]) {
        labels.set(result.id, result.label);
        if (!perSize.has(result.id)) perSize.set(result.id, new Map());
        const bySize = perSize.get(result.id)!;
        if (!bySize.has(size)) bySize.set(size, []);
        bySize.get(size)!.push(result.medianNs);
      }
    }
  }
  for (const [id, bySize] of perSize) {
    const perCall = (size: number) => median(bySize.get(size) ?? []);
    registrySize.push({
      id,
      label: labels.get(id)!,
      perCallNs: Object.fromEntries(REGISTRY_SIZES.map((size) => [size, perCall(size)])),
      ratioToOne: Object.fromEntries(REGISTRY_SIZES.map((size) => [size, perCall(size) / perCall(1)])),
      passesNs: Object.fromEntries(REGISTRY_SIZES.map((size) => [size, bySize.get(size) ?? []])),
    });
  }

  log(`registry build: ${BUILD_RUNS()} fresh processes x ${BUILD_TOOLS} commands ...`);
  const buildRuns: BuildRun[] = Array.from({ length: BUILD_RUNS() }, () => child<BuildRun>('build', BUILD_TOOLS));
  const build = {
    importCoreMs: median(buildRuns.map((run) => run.importCoreMs)),
    decorateMs: median(buildRuns.map((run) => run.decorateMs)),
    registryFromMs: median(buildRuns.map((run) => run.registryFromMs)),
    decorateAndBuildMs: median(buildRuns.map((run) => run.decorateMs + run.registryFromMs)),
    firstCallMs: median(buildRuns.map((run) => run.firstCallMs)),
  };

  log(`memory: ${MEMORY_RUNS()} fresh processes x ${MEMORY_TOOLS} commands (--expose-gc) ...`);
  const memoryRuns: MemoryRun[] = Array.from({ length: MEMORY_RUNS() }, () =>
    child<MemoryRun>('memory', MEMORY_TOOLS, ['--expose-gc']),
  );
  const memoryJsonRuns: MemoryRun[] = Array.from({ length: MEMORY_RUNS() }, () =>
    child<MemoryRun>('memory-json', MEMORY_TOOLS, ['--expose-gc']),
  );
  const medianMemory = (runs: readonly MemoryRun[]) => ({
    decoratedBytesPerTool: median(runs.map((run) => run.decoratedBytesPerTool)),
    registryBytesPerTool: median(runs.map((run) => run.registryBytesPerTool)),
    afterFirstCallsBytesPerTool: median(runs.map((run) => run.afterFirstCallsBytesPerTool)),
    totalBytesPerTool: median(runs.map((run) => run.totalBytesPerTool)),
  });
  const memory = medianMemory(memoryRuns);
  const memoryJson = medianMemory(memoryJsonRuns);

  // Targets (issue 12), on the primary mode (compiled when it exists).
  const rows = main.rows;
  const find = (id: string): Row => {
    const found = rows.find((candidate) => candidate.id === id);
    if (!found) throw new Error(`no row ${id}`);
    return found;
  };
  const ratio = (id: string, baselineId: string) => find(id).medianNs / find(baselineId).medianNs;
  const primaryLabel = modeLabel(primary);
  const targets: Target[] = [];
  const vs = (id: string, baselineId: string) =>
    `${formatRatio(ratio(id, baselineId))} (${formatNs(find(id).medianNs)} vs ${formatNs(find(baselineId).medianNs)})`;
  const kindTarget = (kind: 'json' | 'class', handler: 'async' | 'sync', limit: number, what: string) => {
    const id = `kinds:tw-${kind}-${handler}-${primary}`;
    const baseline = `kinds:hand-${handler}`;
    targets.push({
      target: `${what} <= ${limit}x the hand-written pipeline (same handler)`,
      measured: `${vs(id, baseline)}, ${primaryLabel}`,
      met: ratio(id, baseline) <= limit,
    });
  };
  kindTarget('json', 'async', 1.3, 'valid call, JSON-Schema tool, async handler,');
  kindTarget('class', 'async', 1.3, 'valid call, decorated class command, async handler,');
  kindTarget('json', 'sync', 1.15, 'valid call, JSON-Schema tool, synchronous handler,');
  kindTarget('class', 'sync', 1.15, 'valid call, decorated class command, synchronous handler,');
  // Ahead of ajv and zod: both tool kinds with the synchronous handler the ajv and zod pipelines run, measured in the
  // same group (the valid-call group's rows are another measurement, so they are not compared here).
  const aheadOf = (kind: 'json' | 'class') => {
    const ours = find(`kinds:tw-${kind}-sync-${primary}`).medianNs;
    return ours < find('kinds:ajv-sync').medianNs && ours < find('kinds:zod-sync').medianNs;
  };
  const kindNs = (kind: 'json' | 'class') => formatNs(find(`kinds:tw-${kind}-sync-${primary}`).medianNs);
  targets.push({
    target:
      'valid call ahead of the ajv-compiled and zod pipelines (JSON-Schema tool and class command, synchronous handler)',
    measured: `JSON-Schema tool ${kindNs('json')}, class command ${kindNs('class')} vs ajv ${formatNs(find('kinds:ajv-sync').medianNs)}, zod ${formatNs(find('kinds:zod-sync').medianNs)} (${primaryLabel})`,
    met: aheadOf('json') && aheadOf('class'),
    ...(aheadOf('json') && !aheadOf('class')
      ? { note: 'the JSON-Schema tool is ahead of both; the class command is not' }
      : {}),
  });
  const invalidVsHand = ratio(`invalid:e2e:tw-execute-${primary}`, 'invalid:e2e:hand');
  targets.push({
    target: 'invalid call with the model-facing message <= 2.5x the hand-written check + message',
    measured: `${vs(`invalid:e2e:tw-execute-${primary}`, 'invalid:e2e:hand')}, both JSON text -> message, ${primaryLabel}`,
    met: invalidVsHand <= 2.5,
  });
  const arrayCosts = (id: string) => main.arrays.find((entry) => entry.id === id)!;
  const itemSize = ARRAY_ITEM_TARGET_SIZE;
  const itemTarget = (kind: 'scalar' | 'nested', limit: number, what: string) => {
    const perItem = (id: string) =>
      (kind === 'scalar' ? arrayCosts(id).scalarPerItemNs : arrayCosts(id).nestedPerItemNs)[itemSize]!;
    const ours = perItem(`tw-execute-${primary}`);
    const hand = perItem('hand');
    targets.push({
      target: `per array item, ${what}: <= ${limit}x the hand-written pipeline's per-item cost (at ${itemSize.toLocaleString('en-US')} items)`,
      measured: `${formatRatio(ours / hand)} (${formatNs(ours)} vs ${formatNs(hand)} per item, ${primaryLabel})`,
      met: ours / hand <= limit,
    });
  };
  itemTarget('scalar', 1.3, 'scalars (date-times)');
  itemTarget('nested', 1.5, '`{email, optional}` objects');
  const scale = (id: string) => registrySize.find((entry) => entry.id === id);
  for (const [id, what] of [
    [`tw-json-execute-compiled`, 'JSON-Schema tools'],
    [`tw-execute-${primary}`, 'distinct class commands, each called once'],
  ] as const) {
    const entry = scale(id);
    if (entry === undefined) continue;
    const flat = entry.ratioToOne[LARGEST_REGISTRY]!;
    targets.push({
      target: `per-call cost with ${LARGEST_REGISTRY.toLocaleString('en-US')} ${what} <= 1.2x with one`,
      measured: `${formatRatio(flat)} (${formatNs(entry.perCallNs[LARGEST_REGISTRY]!)} vs ${formatNs(entry.perCallNs[1]!)})`,
      met: flat <= 1.2,
    });
  }
  targets.push({
    target: 'registry build for 1,000 decorated commands <= 300 ms in a fresh process',
    measured: `ToolRegistry.from: ${build.registryFromMs.toFixed(0)} ms (median of ${BUILD_RUNS()} processes); decorating the 1,000 classes before it: ${build.decorateMs.toFixed(0)} ms; both: ${build.decorateAndBuildMs.toFixed(0)} ms`,
    met: build.registryFromMs <= 300,
    note:
      build.decorateAndBuildMs <= 300
        ? 'decorating + building also within 300 ms'
        : 'decorating + building together exceed 300 ms',
  });
  targets.push({
    target: 'memory per JSON-Schema tool <= 4 KiB',
    measured: `${formatBytes(memoryJson.totalBytesPerTool)} (registration ${formatBytes(memoryJson.registryBytesPerTool)}, first call ${formatBytes(memoryJson.afterFirstCallsBytesPerTool)})`,
    met: memoryJson.totalBytesPerTool <= 4 * 1024,
  });
  targets.push({
    target: 'memory per decorated class command <= 10 KiB',
    measured: `${formatBytes(memory.totalBytesPerTool)} (decorating ${formatBytes(memory.decoratedBytesPerTool)}, ToolRegistry.from ${formatBytes(memory.registryBytesPerTool)}, first call ${formatBytes(memory.afterFirstCallsBytesPerTool)})`,
    met: memory.totalBytesPerTool <= 10 * 1024,
  });

  const durationSeconds = (performance.now() - started) / 1000;
  const report: BenchReport = {
    generatedAt: new Date().toISOString(),
    machine: { ...machine, loadAverageAtEnd: loadavg().map((value) => Math.round(value * 100) / 100) },
    versions,
    toolwrightValidation: { ...support, modes },
    classValidatorClassesInMainProcess: main.classValidatorClasses,
    units: 'medianNs: nanoseconds per call (median of batched samples); ratios: row median / baseline median, same run',
    rows: rows.map((entry) => ({
      ...entry,
      ...(entry.handId ? { vsHandWritten: entry.medianNs / find(entry.handId).medianNs } : {}),
      ...(entry.ctcvId ? { vsClassValidator: entry.medianNs / find(entry.ctcvId).medianNs } : {}),
    })),
    arrays: { sizes: ARRAY_SIZES, paths: main.arrays },
    registrySize: {
      sizes: REGISTRY_SIZES,
      passes: REGISTRY_PASSES(),
      registeredClassValidatorClasses: registeredClasses,
      paths: registrySize,
    },
    build: { tools: BUILD_TOOLS, median: build, runs: buildRuns },
    memory: {
      tools: MEMORY_TOOLS,
      median: memory,
      runs: memoryRuns,
      jsonSchema: { median: memoryJson, runs: memoryJsonRuns },
    },
    realApps,
    targets,
    notes: main.notes,
    invalidMessages: main.invalidMessages,
    malformedTransformations: main.malformedTransformations,
    durationSeconds,
  };
  write(`## Real apps\n\n${renderRealApps(realApps)}\n## Issues 4 and 12\n\n${renderReport(report)}`, report);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
