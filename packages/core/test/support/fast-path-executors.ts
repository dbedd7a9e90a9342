import {
  PersonaToolExecutor,
  ToolRegistry,
  silentLogger,
  type CoercionPolicy,
  type ToolResult,
} from '@toolwright/core';
import { objectSchema, TOOL, type JsonSchema } from './json-schema-texts';
import { TextRecordingLogger } from './recording-logger';
import type { SeededRandom } from './seeded-random';
import { showValue } from './show-value';

/** A result as text for comparing two executors (its duration left out). */
export function resultText(result: ToolResult): string {
  const { durationMs: _durationMs, ...rest } = result;
  return showValue(rest);
}

/** A registry holding one JSON Schema tool named {@link TOOL} (handler: the identity), or `undefined` if it refuses it. */
export function registerSchemaTool(schema: JsonSchema): ToolRegistry | undefined {
  const registry = new ToolRegistry({ logger: silentLogger });
  try {
    registry.registerJsonSchemaTool({ name: TOOL, parameters: schema }, (params) => params);
  } catch {
    return undefined;
  }
  return registry;
}

export interface FastPathComparison {
  /** The first five differences (results of one text, or a tool's log records). */
  readonly mismatches: string[];
  readonly calls: number;
}

/**
 * The executor differential the parse-step tests share: for `tools` random JSON Schema tools (`objectSchema`), an
 * executor on the fast path (the default) and one without it (`canonicalFastPath: false`: no canonical check), under
 * one random policy per tool, each run `callsPerTool` texts made by `text`; their results and their log records must be
 * the same, byte for byte.
 */
export async function compareWithoutFastPath(
  random: SeededRandom,
  options: {
    readonly tools: number;
    readonly callsPerTool: number;
    readonly policies: readonly CoercionPolicy[];
    readonly text: (random: SeededRandom, schema: JsonSchema) => string;
    /** When the fast executor compiles its tools (default: on the first call). */
    readonly compile?: 'first-call' | 'registration';
  },
): Promise<FastPathComparison> {
  const mismatches: string[] = [];
  let calls = 0;
  for (let index = 0; index < options.tools; index++) {
    const schema = objectSchema(random, 1);
    const logs = [new TextRecordingLogger(showValue), new TextRecordingLogger(showValue)] as const;
    const registries = logs.map(() => registerSchemaTool(schema));
    if (registries[0] === undefined || registries[1] === undefined) continue;
    const policy = random.pick(options.policies);
    const fast = new PersonaToolExecutor(registries[0], {
      logger: logs[0],
      coercion: policy,
      compile: options.compile ?? 'first-call',
    });
    const without = new PersonaToolExecutor(registries[1], {
      logger: logs[1],
      coercion: policy,
      canonicalFastPath: false,
    });
    for (let call = 0; call < options.callsPerTool; call++) {
      const text = options.text(random, schema);
      const actual = resultText(await fast.execute({ id: 'c', name: TOOL, arguments: text }));
      const expected = resultText(await without.execute({ id: 'c', name: TOOL, arguments: text }));
      calls++;
      if (actual !== expected && mismatches.length < 5)
        mismatches.push(`${JSON.stringify(text)}:\n  ${actual}\n  ${expected}`);
    }
    if (logs[0].records.join('\n') !== logs[1].records.join('\n') && mismatches.length < 5)
      mismatches.push(`log records differ for ${JSON.stringify(schema)}`);
  }
  return { mismatches, calls };
}
