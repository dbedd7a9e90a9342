import 'reflect-metadata';
import Ajv from 'ajv';
import { PersonaToolExecutor, silentLogger, ToolRegistry, type ToolCall } from '@toolwright/core';
import { configureHotTier, DEFAULT_HOT_TIER } from '@toolwright/core/compile/hot-tier';
import {
  bfclToJsonSchema,
  loadBfclEntries,
  loadBfclGroundTruth,
  type BfclGroundTruthFile,
  type BfclQuestionFile,
} from '../support/bfcl';
import {
  BFCL_PYTHON_TYPED_SETS,
  acceptable,
  canonicalArguments,
  typeOf,
  type Json,
  type Schema,
} from '../support/bfcl-ground-truth';

/**
 * Issue 3's bar over the Berkeley Function Calling Leaderboard: every ground-truth call of the Python-typed sets, and
 * our own malformed variants of it, goes through the executor; each comes out equal to the ground truth (recovered),
 * different (wrong: must be zero) or refused. Counts are printed for the closing note.
 */
const SETS = BFCL_PYTHON_TYPED_SETS;

/** Numbers and booleans as strings, where the schema says integer/number/boolean (the malformation models make). */
function stringifyScalars(value: Json, schema: Schema | undefined): Json {
  const type = typeOf(schema);
  if ((type === 'integer' || type === 'number') && typeof value === 'number') return String(value);
  if (type === 'boolean' && typeof value === 'boolean') return value ? 'True' : 'false';
  if (type === 'array' && Array.isArray(value)) return value.map((item) => stringifyScalars(item, schema?.items));
  if (type === 'object' && value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, stringifyScalars(item, schema?.properties?.[key])]),
    );
  }
  return value;
}

function pythonRepr(value: Json): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return JSON.stringify(value);
  if (typeof value === 'string')
    return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}'`;
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  return `{${Object.entries(value)
    .map(([key, item]) => `${pythonRepr(key)}: ${pythonRepr(item)}`)
    .join(', ')}}`;
}

function toSnakeCase(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

function variants(args: Record<string, Json>, parameters: Schema): Array<[string, ToolCall['arguments']]> {
  const properties = parameters.properties ?? {};
  const list: Array<[string, ToolCall['arguments']]> = [
    ['as-is', JSON.stringify(args)],
    ['object', args],
    ['double-encoded', JSON.stringify(JSON.stringify(args))],
    ['fenced-block', `\`\`\`json\n${JSON.stringify(args, null, 2)}\n\`\`\``],
    ['python-literals', pythonRepr(args)],
    ['trailing-comma', JSON.stringify(args).replace(/}$/, ',}')],
    ['repeated-object', JSON.stringify(args) + JSON.stringify(args)],
    ['scalars-as-strings', JSON.stringify(stringifyScalars(args, parameters))],
  ];
  const arraysAsText: Record<string, Json> = {};
  const unwrapped: Record<string, Json> = {};
  let changedArrays = false;
  let changedSingles = false;
  for (const [key, value] of Object.entries(args)) {
    const isArray = typeOf(properties[key]) === 'array' && Array.isArray(value);
    arraysAsText[key] = isArray ? JSON.stringify(value) : value;
    changedArrays ||= isArray;
    const single = isArray && value.length === 1 && !Array.isArray(value[0]);
    unwrapped[key] = single ? value[0]! : value;
    changedSingles ||= single;
  }
  if (changedArrays) list.push(['arrays-as-json-strings', JSON.stringify(arraysAsText)]);
  if (changedSingles) list.push(['single-element-unwrapped', JSON.stringify(unwrapped)]);
  const names = Object.keys(properties);
  const snake = Object.fromEntries(Object.entries(args).map(([key, value]) => [toSnakeCase(key), value]));
  const snakeIsUnambiguous = Object.keys(snake).every(
    (key) => !names.includes(key) || Object.prototype.hasOwnProperty.call(args, key),
  );
  if (Object.keys(snake).some((key) => !(key in args)) && snakeIsUnambiguous)
    list.push(['snake-case-keys', JSON.stringify(snake)]);
  const optional = names.filter(
    (name) => !(parameters as { required?: string[] }).required?.includes(name) && !(name in args),
  );
  if (optional.length > 0) list.push(['null-for-optional', JSON.stringify({ ...args, [optional[0]!]: null })]);
  return list;
}

/** Ground-truth arguments the function's own schema does not declare (upstream data errors; the executor drops them). */
function outsideSchema(expected: Record<string, unknown[]>, parameters: Schema): string[] {
  return Object.keys(expected).filter((key) => !(key in (parameters.properties ?? {})));
}

describe.each([
  ['', 'auto'],
  [', every tool on the hot tier (its own generated check, decision 0031)', 'always'],
] as const)('BFCL ground truth through the executor%s', (_title, mode) => {
  beforeAll(() => {
    configureHotTier({ mode });
  });

  const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: false });
  const summary = {
    calls: 0,
    executions: 0,
    groundTruthOutsideSchema: 0,
    /** Ground-truth calls that fit their declared schema: each variant is recovered, wrong or refused. */
    valid: { calls: 0, executions: 0, recovered: 0, wrong: 0, refused: 0 },
    /** Ground-truth calls the executor refused as sent; ajv must reject each against the declared schema too. */
    invalid: { calls: 0, executions: 0, refused: 0, acceptedVariant: 0, ajvAgrees: 0 },
  };
  const wrong: string[] = [];
  const lostVariants: string[] = [];
  const unjustified: string[] = [];
  const refusalReasons = new Map<string, number>();

  it.each(SETS)('%s: every call and its malformed variants', async (set) => {
    const entries = loadBfclEntries(`BFCL_v4_${set}.json` as BfclQuestionFile);
    const truths = loadBfclGroundTruth(`BFCL_v4_${set}.json` as BfclGroundTruthFile);
    expect(entries.length).toBe(truths.length);
    for (let index = 0; index < entries.length; index++) {
      const entry = entries[index]!;
      const truth = truths[index]!;
      const registry = new ToolRegistry({ logger: silentLogger });
      const schemas = new Map<string, Schema>();
      for (const fn of entry.function) {
        const parameters = bfclToJsonSchema(fn.parameters) as Schema;
        schemas.set(fn.name, parameters);
        registry.registerJsonSchemaTool(
          { name: fn.name, description: fn.description, parameters },
          async (params) => params,
        );
      }
      const executor = new PersonaToolExecutor(registry, { logger: silentLogger });
      for (const expectedCall of truth.ground_truth) {
        const [name, expectedValue] = Object.entries(expectedCall)[0]!;
        const expected = expectedValue as Record<string, unknown[]>;
        const parameters = schemas.get(name)!;
        const args = canonicalArguments(expected);
        summary.calls++;
        if (outsideSchema(expected, parameters).length > 0) summary.groundTruthOutsideSchema++;
        let groundTruthValid: boolean | undefined;
        for (const [variant, argumentsValue] of variants(args, parameters)) {
          summary.executions++;
          const result = await executor.execute({ id: `${entry.id}-${variant}`, name, arguments: argumentsValue });
          if (groundTruthValid === undefined) {
            // The first variant is the call as the ground truth gives it.
            groundTruthValid = result.ok;
            if (result.ok) summary.valid.calls++;
            else {
              summary.invalid.calls++;
              const reason = `${result.error.code}:${result.error.issues[0]?.rule ?? ''}`;
              refusalReasons.set(reason, (refusalReasons.get(reason) ?? 0) + 1);
              if (!ajv.validate(parameters, args)) summary.invalid.ajvAgrees++;
              else
                unjustified.push(
                  `${entry.id} ${name} ${JSON.stringify(args).slice(0, 200)}: ${result.error.message.slice(0, 300)}`,
                );
            }
          }
          if (!groundTruthValid) {
            summary.invalid.executions++;
            if (result.ok) summary.invalid.acceptedVariant++;
            else summary.invalid.refused++;
            continue;
          }
          summary.valid.executions++;
          if (!result.ok) {
            summary.valid.refused++;
            lostVariants.push(`${entry.id} ${variant}: ${result.error.message.slice(0, 200)}`);
            continue;
          }
          if (acceptable(result.value as Record<string, unknown>, expected, parameters)) summary.valid.recovered++;
          else {
            summary.valid.wrong++;
            wrong.push(
              `${entry.id} ${variant}: sent ${JSON.stringify(argumentsValue).slice(0, 200)} got ${JSON.stringify(result.value).slice(0, 200)}`,
            );
          }
        }
      }
    }
  });

  afterAll(() => {
    configureHotTier(DEFAULT_HOT_TIER);
    console.log(
      `BFCL executor: ${JSON.stringify(summary)}\nground-truth refusals by reason: ${JSON.stringify(Object.fromEntries(refusalReasons))}`,
    );
  });

  it('recovered every variant of every valid ground-truth call, and never produced a wrong value', () => {
    expect(wrong.slice(0, 20)).toEqual([]);
    expect(summary.valid.wrong).toBe(0);
    expect(lostVariants.slice(0, 20)).toEqual([]);
    expect(summary.valid.recovered).toBe(summary.valid.executions);
    expect(summary.valid.calls).toBeGreaterThan(3000);
    expect(summary.executions).toBeGreaterThan(summary.calls * 8);
  });

  it('refused only ground-truth calls that violate their declared schema (ajv agrees on every one)', () => {
    expect(unjustified).toEqual([]);
    expect(summary.invalid.ajvAgrees).toBe(summary.invalid.calls);
    // A variant of an invalid call is never "repaired" into an accepted one.
    expect(summary.invalid.acceptedVariant).toBe(0);
  });
});
