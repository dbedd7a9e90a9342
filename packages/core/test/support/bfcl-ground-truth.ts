import { deepEqual } from '../../src/pipeline/deep-equal';
import {
  bfclToJsonSchema,
  loadBfclEntries,
  loadBfclGroundTruth,
  type BfclGroundTruthFile,
  type BfclQuestionFile,
} from './bfcl';

/**
 * BFCL ground-truth calls as tests need them: one canonical argument object per expected call, and BFCL's own
 * acceptance criterion. Reads through `./bfcl` (the one place that knows where the corpus lives).
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  required?: string[];
};

/** The sets whose ground truth uses Python-typed schemas (the JSON-typed sets the executor imports). */
export const BFCL_PYTHON_TYPED_SETS = [
  'simple_python',
  'multiple',
  'parallel',
  'parallel_multiple',
  'live_simple',
  'live_multiple',
  'live_parallel',
  'live_parallel_multiple',
] as const;

export interface GroundTruthCall {
  readonly entryId: string;
  readonly name: string;
  /** The functions offered with the question, as JSON Schema. */
  readonly functions: ReadonlyArray<{
    readonly name: string;
    readonly description: string;
    readonly parameters: Schema;
  }>;
  readonly parameters: Schema;
  readonly expected: Record<string, unknown[]>;
  /** The first acceptable value of each argument. */
  readonly args: Record<string, Json>;
}

/** Every expected call of one set, with its functions. */
export function groundTruthCalls(set: (typeof BFCL_PYTHON_TYPED_SETS)[number]): GroundTruthCall[] {
  const file = `BFCL_v4_${set}.json`;
  const entries = loadBfclEntries(file as BfclQuestionFile);
  const truths = loadBfclGroundTruth(file as BfclGroundTruthFile);
  if (entries.length !== truths.length)
    throw new Error(`${file}: ${entries.length} entries but ${truths.length} ground-truth lines`);
  const calls: GroundTruthCall[] = [];
  entries.forEach((entry, index) => {
    const functions = entry.function.map((fn) => ({
      name: fn.name,
      description: fn.description,
      parameters: bfclToJsonSchema(fn.parameters),
    }));
    for (const expectedCall of truths[index]!.ground_truth) {
      const [name, expectedValue] = Object.entries(expectedCall)[0]!;
      const expected = expectedValue as Record<string, unknown[]>;
      const parameters = functions.find((fn) => fn.name === name)!.parameters;
      calls.push({ entryId: entry.id, name, functions, parameters, expected, args: canonicalArguments(expected) });
    }
  });
  return calls;
}

/** The first acceptable value of each argument ("" means the argument may be omitted). */
export function canonicalArguments(expected: Record<string, unknown[]>): Record<string, Json> {
  const args: Record<string, Json> = {};
  for (const [name, values] of Object.entries(expected)) {
    const value = values.find((candidate) => candidate !== '');
    if (value !== undefined) args[name] = unwrapNested(value) as Json;
  }
  return args;
}

/** Nested objects in ground truth are `{key: [acceptable...]}`: take the first acceptable value at each level. */
export function unwrapNested(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unwrapNested);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (Array.isArray(inner)) {
        const chosen = inner.find((candidate) => candidate !== '');
        if (chosen !== undefined) out[key] = unwrapNested(chosen);
      } else out[key] = unwrapNested(inner);
    }
    return out;
  }
  return value;
}

export function typeOf(schema: Schema | undefined): string | undefined {
  return Array.isArray(schema?.type) ? schema.type.find((type) => type !== 'null') : schema?.type;
}

/** Equal, or equal once a number/boolean the ground truth gives for a string parameter is read as that string. */
function matches(actual: unknown, expected: Json, schema: Schema | undefined): boolean {
  if (deepEqual(actual, expected)) return true;
  const type = typeOf(schema);
  if (type === 'string' && (typeof expected === 'number' || typeof expected === 'boolean')) {
    return (
      actual === String(expected) ||
      (schema?.enum !== undefined &&
        typeof actual === 'string' &&
        actual.toLowerCase() === String(expected).toLowerCase())
    );
  }
  if (type === 'string' && schema?.enum && typeof actual === 'string' && typeof expected === 'string')
    return actual.toLowerCase() === expected.toLowerCase();
  if (type === 'array' && Array.isArray(actual) && Array.isArray(expected)) {
    return (
      actual.length === expected.length && actual.every((item, index) => matches(item, expected[index]!, schema?.items))
    );
  }
  if (
    type === 'object' &&
    actual &&
    typeof actual === 'object' &&
    expected &&
    typeof expected === 'object' &&
    !Array.isArray(expected)
  ) {
    const keys = Object.keys(expected);
    return (
      keys.length === Object.keys(actual).length &&
      keys.every((key) => matches((actual as Record<string, unknown>)[key], expected[key]!, schema?.properties?.[key]))
    );
  }
  return false;
}

/**
 * BFCL's own criterion: every argument present has one of the acceptable values, every argument absent may be omitted
 * (its list holds "" or null), and nothing else is present.
 */
export function acceptable(
  value: Record<string, unknown>,
  expected: Record<string, unknown[]>,
  parameters: Schema,
): boolean {
  for (const key of Object.keys(value)) {
    const options = expected[key];
    if (!options) return false;
    if (
      !options.some(
        (option) => option !== '' && matches(value[key], unwrapNested(option) as Json, parameters.properties?.[key]),
      )
    )
      return false;
  }
  return Object.entries(expected).every(
    ([key, options]) =>
      key in value || options.includes('') || options.includes(null) || !(key in (parameters.properties ?? {})),
  );
}
