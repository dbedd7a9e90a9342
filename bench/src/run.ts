import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { ToolRegistry, silentLogger } from '@toolwright/core';
import { isQuick } from './harness';
import { runMainCases } from './main-cases';
import { formatNs, formatRatio } from './report';
import { renderReport } from './render';
import type { BenchReport, BuildRun, MemoryRun, RegistrySizeCosts, Row, Target } from './results';
import { ARRAY_SIZES } from './scenario/inputs';
import { ScheduleMeetingCommand } from './scenario/toolwright';
import { detectValidationOption, modeLabel, modesToMeasure } from './toolwright-setup';

/**
 * `npm run bench`: every case of issue 4 in one run. Prints markdown tables (medians, ratios to the hand-written and
 * CT+CV baselines of the same run) and writes bench/results/latest.json. Options:
 *   --quick         a quarter of the time budgets and fewer fresh processes (a smoke run; never for the README)
 *   --out <file>    where the JSON goes (default bench/results/latest.json)
 */

const REGISTRY_SIZES = [1, 100, 1_000] as const;
const REGISTRY_PASSES = () => (isQuick() ? 1 : 5);
const BUILD_TOOLS = 1_000;
const BUILD_RUNS = () => (isQuick() ? 2 : 5);
const MEMORY_TOOLS = 1_000;
const MEMORY_RUNS = () => (isQuick() ? 1 : 3);
const PACKAGES = ['typescript', 'tinybench', 'class-validator', 'class-transformer', 'zod', 'ajv', '@langchain/core', 'ai', '@ai-sdk/provider-utils', 'reflect-metadata', 'tsyringe'];

const started = performance.now();
const args = process.argv.slice(2);
if (args.includes('--quick')) process.env['BENCH_QUICK'] = '1';
const outIndex = args.indexOf('--out');
const outFile = outIndex >= 0 && args[outIndex + 1] ? args[outIndex + 1]! : join(__dirname, '..', 'results', 'latest.json');
const log = (line: string) => process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(3)}s] ${line}\n`);

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
  const script = join(__dirname, 'child.js');
  const result = spawnSync(process.execPath, [...nodeFlags, script, mode, String(count)], { encoding: 'utf8', timeout: 180_000, maxBuffer: 16 * 1024 * 1024 });
  const line = result.stdout?.split('\n').find((candidate) => candidate.startsWith('@@result '));
  if (result.status !== 0 || line === undefined) {
    throw new Error(`child ${mode} ${count} failed (status ${result.status}${result.signal ? `, ${result.signal}` : ''}): ${(result.stderr ?? '').trim().slice(0, 2000)}`);
  }
  return JSON.parse(line.slice('@@result '.length)) as T;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

interface ChildMeasurement {
  readonly id: string;
  readonly label: string;
  readonly medianNs: number;
  readonly relativeMad: number;
  readonly samples: number;
}

async function main(): Promise<void> {
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
  log(support.supported ? `measuring toolwright with validation: 'compiled' and 'reference' (${support.evidence})` : `measuring toolwright's default validation only: ${support.evidence}`);

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
      log(`registry size ${size} (pass ${pass + 1}/${REGISTRY_PASSES()}): toolwright + hand-written, then CT+CV, each in a fresh process ...`);
      const tw = child<{ results: ChildMeasurement[] }>('scale-tw', size);
      const cv = child<{ results: ChildMeasurement[]; registeredClasses: number }>('scale-cv', size);
      registeredClasses[size] = cv.registeredClasses;
      for (const result of [...tw.results, ...cv.results]) {
        labels.set(result.id, result.label);
        if (!perSize.has(result.id)) perSize.set(result.id, new Map());
        const bySize = perSize.get(result.id)!;
        if (!bySize.has(size)) bySize.set(size, []);
        bySize.get(size)!.push(result.medianNs);
      }
    }
  }
  for (const [id, bySize] of perSize) {
    const perCall = (size: number) => median(bySize.get(size)!);
    registrySize.push({
      id,
      label: labels.get(id)!,
      perCallNs: Object.fromEntries(REGISTRY_SIZES.map((size) => [size, perCall(size)])),
      ratioToOne: Object.fromEntries(REGISTRY_SIZES.map((size) => [size, perCall(size) / perCall(1)])),
      passesNs: Object.fromEntries(REGISTRY_SIZES.map((size) => [size, bySize.get(size)!])),
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
  const memoryRuns: MemoryRun[] = Array.from({ length: MEMORY_RUNS() }, () => child<MemoryRun>('memory', MEMORY_TOOLS, ['--expose-gc']));
  const memory = {
    decoratedBytesPerTool: median(memoryRuns.map((run) => run.decoratedBytesPerTool)),
    registryBytesPerTool: median(memoryRuns.map((run) => run.registryBytesPerTool)),
    afterFirstCallsBytesPerTool: median(memoryRuns.map((run) => run.afterFirstCallsBytesPerTool)),
    totalBytesPerTool: median(memoryRuns.map((run) => run.totalBytesPerTool)),
  };

  // Targets (issue 4), on the primary mode (compiled when it exists).
  const rows = main.rows;
  const find = (id: string): Row => {
    const found = rows.find((candidate) => candidate.id === id);
    if (!found) throw new Error(`no row ${id}`);
    return found;
  };
  const ratio = (id: string, baselineId: string) => find(id).medianNs / find(baselineId).medianNs;
  const alsoReference = (text: (mode: 'reference') => string) => (modes.includes('reference') ? `; reference path: ${text('reference')}` : '');
  const primaryLabel = modeLabel(primary);
  const targets: Target[] = [];
  const validVsHand = ratio(`valid:e2e:tw-execute-${primary}`, 'valid:e2e:hand');
  targets.push({
    target: 'valid call end to end <= 1.1x the hand-written pipeline',
    measured: `${formatRatio(validVsHand)} (${formatNs(find(`valid:e2e:tw-execute-${primary}`).medianNs)} vs ${formatNs(find('valid:e2e:hand').medianNs)}, ${primaryLabel})${alsoReference((mode) => formatRatio(ratio(`valid:e2e:tw-execute-${mode}`, 'valid:e2e:hand')))}`,
    met: validVsHand <= 1.1,
  });
  const ctcvVsValid = 1 / ratio(`valid:e2e:tw-execute-${primary}`, 'valid:e2e:ctcv');
  const faster = (times: number) => (times >= 1 ? `${formatRatio(times)} faster` : `${formatRatio(1 / times)} slower`);
  targets.push({
    target: 'valid call end to end >= 5x faster than the CT+CV pipeline',
    measured: `${faster(ctcvVsValid)} (${formatNs(find(`valid:e2e:tw-execute-${primary}`).medianNs)} vs CT+CV ${formatNs(find('valid:e2e:ctcv').medianNs)}, ${primaryLabel})${alsoReference((mode) => faster(1 / ratio(`valid:e2e:tw-execute-${mode}`, 'valid:e2e:ctcv')))}`,
    met: ctcvVsValid >= 5,
  });
  const invalidVsHand = ratio(`invalid:e2e:tw-execute-${primary}`, 'invalid:e2e:hand');
  targets.push({
    target: 'invalid call with the model-facing message <= 2x the hand-written check + message',
    measured: `${formatRatio(invalidVsHand)} (${formatNs(find(`invalid:e2e:tw-execute-${primary}`).medianNs)} vs ${formatNs(find('invalid:e2e:hand').medianNs)}, both JSON text -> message, ${primaryLabel})${alsoReference((mode) => formatRatio(ratio(`invalid:e2e:tw-execute-${mode}`, 'invalid:e2e:hand')))}`,
    met: invalidVsHand <= 2,
  });
  const scale = (mode: string) => registrySize.find((entry) => entry.id === `tw-execute-${mode}`)!;
  const toolsRatio = scale(primary).ratioToOne[1_000]!;
  targets.push({
    target: 'per-call cost with 1,000 registered tools <= 1.2x with 1 tool',
    measured: `${formatRatio(toolsRatio)} (${formatNs(scale(primary).perCallNs[1_000]!)} vs ${formatNs(scale(primary).perCallNs[1]!)}, ${primaryLabel})${alsoReference((mode) => formatRatio(scale(mode).ratioToOne[1_000]!))}`,
    met: toolsRatio <= 1.2,
  });
  const arrayCosts = (mode: string) => main.arrays.find((entry) => entry.id === `tw-execute-${mode}`)!;
  const largest = ARRAY_SIZES[ARRAY_SIZES.length - 1]!;
  const scalarItem = arrayCosts(primary).scalarPerItemNs[largest]!;
  const nestedItem = arrayCosts(primary).nestedPerItemNs[largest]!;
  targets.push({
    target: '<= 0.1 us per scalar array item at 10,000 items',
    measured: `${formatNs(scalarItem)} per item (${primaryLabel}, JSON text -> handler, JSON.parse included: ${formatNs(main.arrays.find((entry) => entry.id === 'json-parse')!.scalarPerItemNs[largest]!)} of it)${alsoReference((mode) => formatNs(arrayCosts(mode).scalarPerItemNs[largest]!))}`,
    met: scalarItem <= 100,
  });
  targets.push({
    target: '<= 0.2 us per nested object item at 10,000 items',
    measured: `${formatNs(nestedItem)} per item (${primaryLabel}, JSON.parse included: ${formatNs(main.arrays.find((entry) => entry.id === 'json-parse')!.nestedPerItemNs[largest]!)} of it)${alsoReference((mode) => formatNs(arrayCosts(mode).nestedPerItemNs[largest]!))}`,
    met: nestedItem <= 200,
  });
  targets.push({
    target: 'registry build for 1,000 decorated commands <= 300 ms in a fresh process',
    measured: `ToolRegistry.from: ${build.registryFromMs.toFixed(0)} ms (median of ${BUILD_RUNS()} processes); decorating the 1,000 classes before it: ${build.decorateMs.toFixed(0)} ms; both: ${build.decorateAndBuildMs.toFixed(0)} ms`,
    met: build.registryFromMs <= 300,
    note: build.decorateAndBuildMs <= 300 ? 'decorating + building also within 300 ms' : 'decorating + building together exceed 300 ms',
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
    registrySize: { sizes: REGISTRY_SIZES, passes: REGISTRY_PASSES(), registeredClassValidatorClasses: registeredClasses, paths: registrySize },
    build: { tools: BUILD_TOOLS, median: build, runs: buildRuns },
    memory: { tools: MEMORY_TOOLS, median: memory, runs: memoryRuns },
    targets,
    notes: main.notes,
    invalidMessages: main.invalidMessages,
    malformedTransformations: main.malformedTransformations,
    durationSeconds,
  };
  process.stdout.write(renderReport(report));
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, `${JSON.stringify(report, null, 2)}\n`);
  log(`wrote ${outFile}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
