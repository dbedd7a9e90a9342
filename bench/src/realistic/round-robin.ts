import { PersonaToolExecutor, ToolRegistry, silentLogger, type ToolResult } from '@toolwright/core';
import { isQuick, measure, type MeasureOptions } from '../harness';
import { ajvPipeline } from '../scenario/ajv';
import { ctcvPipeline } from '../scenario/class-validator';
import type { BenchCall, Outcome } from '../scenario/shape';
import { zodPipeline } from '../scenario/zod';
import { leanPipeline, leanTool } from './hand-written';
import { ajvTool, createRealisticAjv, cvTool, zodTool } from './libraries';
import type { RealisticResult } from './contenders';
import { argumentVariants, invalidArguments, shapeSpecs, type ShapeSpec } from './shapes';
import { classCommand, handlerResult, jsonSchemaDeclaration } from './toolwright';

/**
 * The realistic case (issue 26): `count` commands of distinct shapes, called round-robin the way an agent calls them,
 * each command's arguments different from one call to the next (`VARIANTS` texts per command, so no contender can
 * keep anything per text), for both tool kinds, next to a lean hand-written pipeline per shape, an ajv pipeline per
 * schema, zod and class-transformer + class-validator. Every contender first gets every call of the sequence once
 * (checked: each must accept every call and refuse each command's invalid call), then the same fixed number of
 * warm-up calls; then CPU time (the whole process) in interleaved rounds, medians. Runs in a process of its own.
 */

/** Argument texts per command: the round-robin sequence is `count * VARIANTS` calls long. */
const VARIANTS = 16;
/**
 * Warm-up calls per contender after the checked pass: 4,000 per command, at least 5,000, so that every contender is
 * measured in its steady state. The hand-written pipeline has a function of its own per shape, and V8 optimizes each
 * after a few thousand calls on a background thread whose CPU time counts: with 2 passes over the sequence (100 calls
 * per function at 50 commands) its first 130,000-150,000 measured calls ran 2-5x slower than its steady state, which
 * made it look up to twice as slow as it is. A contender still warming up after `WARMUP_MAX_MS` of CPU stops there
 * (the same rule for all; only the slowest contenders, class-transformer + class-validator and zod at 200 commands,
 * reach it).
 */
const warmupCalls = (count: number) => (isQuick() ? 5_000 : Math.max(5_000, 4_000 * count));
const WARMUP_MAX_MS = 12_000;

type Pipeline = (call: BenchCall) => Promise<Outcome>;

function toolwrightPipeline(executor: PersonaToolExecutor): Pipeline {
  const outcome = (result: ToolResult): Outcome =>
    result.ok ? { ok: true, value: result.value } : { ok: false, message: result.error.message };
  return async (call) => outcome(await executor.execute(call));
}

/** Every contender's pipeline over the same `count` shapes (toolwright's two kinds in registries of their own). */
export function realisticPipelines(shapes: readonly ShapeSpec[]): Map<string, Pipeline> {
  const classRegistry = ToolRegistry.from(shapes.map(classCommand), { logger: silentLogger });
  const jsonRegistry = new ToolRegistry({ logger: silentLogger });
  for (const shape of shapes) {
    const result = handlerResult(shape);
    jsonRegistry.registerJsonSchemaTool(jsonSchemaDeclaration(shape), () => result);
  }
  const byKind = (checksEmail: boolean) => {
    const ajv = createRealisticAjv(checksEmail);
    const tools = shapes.map((shape) => {
      const result = handlerResult(shape);
      const handler = () => result;
      return {
        name: shape.name,
        lean: leanTool(shape, checksEmail, handler),
        ajv: ajvTool(ajv, shape, handler),
        zod: zodTool(shape, checksEmail, handler),
      };
    });
    return {
      hand: leanPipeline(new Map(tools.map((tool) => [tool.name, tool.lean]))),
      ajv: ajvPipeline(ajv, new Map(tools.map((tool) => [tool.name, tool.ajv]))),
      zod: zodPipeline(new Map(tools.map((tool) => [tool.name, tool.zod]))),
    };
  };
  // Both kinds check e-mail addresses: a JSON-Schema tool's `format: "email"` is enforced like `@IsEmail()` (every
  // format shown to a model is; docs/normalization.md). Each kind keeps pipelines of its own (their own feedback).
  const classKind = byKind(true);
  const jsonKind = byKind(true);
  const cv = ctcvPipeline(
    new Map(
      shapes.map((shape) => {
        const result = handlerResult(shape);
        return [shape.name, cvTool(shape, () => result)];
      }),
    ),
  );
  // The synchronous handlers are what every baseline runs (each pipeline awaits the handler's value the same way).
  return new Map<string, Pipeline>([
    ['class:tw', toolwrightPipeline(new PersonaToolExecutor(classRegistry, { logger: silentLogger }))],
    ['class:hand', classKind.hand],
    ['class:ajv', classKind.ajv],
    ['class:zod', classKind.zod],
    ['class:cv', cv],
    ['json:tw', toolwrightPipeline(new PersonaToolExecutor(jsonRegistry, { logger: silentLogger }))],
    ['json:hand', jsonKind.hand],
    ['json:ajv', jsonKind.ajv],
    ['json:zod', jsonKind.zod],
  ]);
}

/** The round-robin sequence: pass `p` calls every command once, with its `p`-th argument text. */
export function roundRobinCalls(shapes: readonly ShapeSpec[]): BenchCall[] {
  const variants = shapes.map((shape) => argumentVariants(shape, VARIANTS));
  const calls: BenchCall[] = [];
  for (let pass = 0; pass < VARIANTS; pass++)
    for (let index = 0; index < shapes.length; index++)
      calls.push({ id: `call_${pass}_${index}`, name: shapes[index]!.name, arguments: variants[index]![pass]! });
  return calls;
}

/**
 * Every contender must accept every call of the sequence and refuse each command's invalid call (a baseline that
 * accepts anything would be fast for nothing). Returns the problems; this pass is also every command's first call.
 */
export async function checkContenders(
  pipelines: ReadonlyMap<string, Pipeline>,
  shapes: readonly ShapeSpec[],
  calls: readonly BenchCall[],
): Promise<string[]> {
  const problems: string[] = [];
  for (const [id, pipeline] of pipelines) {
    for (const call of calls) {
      const outcome = await pipeline(call);
      if (!outcome.ok) {
        problems.push(`${id} refused ${call.name} ${call.arguments}: ${outcome.message}`);
        break;
      }
    }
    for (const shape of shapes) {
      const outcome = await pipeline({ id: 'invalid', name: shape.name, arguments: invalidArguments(shape) });
      if (outcome.ok) {
        problems.push(`${id} accepted the invalid call of ${shape.name}: ${invalidArguments(shape)}`);
        break;
      }
    }
  }
  return problems;
}

export async function measureRealistic(count: number, options: Partial<MeasureOptions> = {}): Promise<RealisticResult> {
  const shapes = shapeSpecs(count);
  const pipelines = realisticPipelines(shapes);
  const calls = roundRobinCalls(shapes);
  const problems = await checkContenders(pipelines, shapes, calls);
  if (problems.length > 0) throw new Error(`realistic ${count}: ${problems.join('\n')}`);
  const tasks = [...pipelines].map(([id, pipeline]) => {
    let next = 0;
    return {
      id,
      fn: () => {
        const call = calls[next]!;
        next = next + 1 === calls.length ? 0 : next + 1;
        return pipeline(call);
      },
    };
  });
  const warmup = warmupCalls(count);
  const measured = await measure(tasks, {
    timeMs: 900,
    rounds: 5,
    minSamplesPerRound: 3,
    targetBatchUs: 4_000,
    clock: 'cpu',
    warmupCalls: warmup,
    warmupMaxMs: WARMUP_MAX_MS,
    ...options,
  });
  return {
    tools: count,
    calls: calls.length,
    warmupCalls: warmup,
    results: [...measured.values()].map(({ id, medianNs, relativeMad, samples, batch }) => ({
      id,
      medianNs,
      relativeMad,
      samples,
      batch,
    })),
  };
}
