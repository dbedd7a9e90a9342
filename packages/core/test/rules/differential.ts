import fc from 'fast-check';
import {
  PersonaToolExecutor,
  ToolRegistry,
  silentLogger,
  toStandardSchema,
  type CoercionPolicy,
  type PrepareResult,
} from '@toolwright/core';
import { checkToolResult } from '@toolwright/core/internal';
import { canonicalCheck, NOT_ACCEPTED } from '@toolwright/core/compile/canonical-check';
import { DEFAULT_LIMITS } from '@toolwright/core/pipeline/limits';
import { UNICODE_EDGES } from '@toolwright/core/rules/outcome';
import { jsonText } from '../support/rule-engines';
import { RULES } from './rule-table';

/**
 * The differential test of the rules: seeded calls drawn from every rule's own edge cases and from generators of the
 * same edges (date-time fields beyond their ranges, offsets -24:00 to +99:99, numbers around 2^53, strings of Unicode
 * edge pieces), to one tool that takes every rule as an optional parameter. The default compiled path, the reference
 * path and Standard Schema's `validate` must agree on accept/refuse, on the arguments handed on and (default and
 * reference) on the message; the hot tier's code must accept exactly what the shared walk accepts, and only values the
 * compiled path hands on unchanged; under `strict`, the output-schema check accepts exactly what the compiled path
 * accepts.
 */

const two = (value: number) => String(value).padStart(2, '0');

/** A date-time from fields drawn across and beyond their ranges. */
const dateTimes = fc
  .record({
    year: fc.constantFrom(1900, 2000, 2024, 2026, 2100),
    month: fc.integer({ min: 0, max: 13 }),
    day: fc.constantFrom(0, 1, 15, 28, 29, 30, 31, 32),
    hour: fc.constantFrom(0, 9, 23, 24),
    minute: fc.constantFrom(0, 59, 60),
    second: fc.constantFrom(0, 59, 60, 61),
    fraction: fc.constantFrom('', '.5', '.123456789', '.1234567891'),
    offset: fc.oneof(
      fc.constantFrom('Z', 'z', ''),
      fc
        .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }))
        .map(([sign, hours, minutes]) => `${sign}${two(hours)}:${two(minutes)}`),
      fc.constantFrom('+0100', '+01', '-0530'),
    ),
    separator: fc.constantFrom('T', 'T', 'T', 't', ' '),
  })
  .map(
    (f) =>
      `${f.year}-${two(f.month)}-${two(f.day)}${f.separator}${two(f.hour)}:${two(f.minute)}:${two(f.second)}${f.fraction}${f.offset}`,
  );

const numbers = fc.oneof(
  fc.integer({ min: -10, max: 10 }),
  fc.constantFrom(-0, 2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2, -(2 ** 53 - 1), 1e3, 1e-7, 1e300, 0.1, 5e-324),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
);

const unicodeText = fc
  .array(fc.constantFrom(...UNICODE_EDGES.map((edge) => edge.text), 'a', 'Z', ' ', '1'), { maxLength: 5 })
  .map((parts) => parts.join(''));

/** The values one rule's parameter is given: its labelled edge cases, and the generators of its kind's edges. */
function valuesFor(name: string, cases: readonly unknown[]): fc.Arbitrary<unknown> {
  const edges = fc.constantFrom(...cases);
  switch (name) {
    case 'date-time':
      return fc.oneof(edges, dateTimes);
    case 'date':
      return fc.oneof(
        edges,
        dateTimes.map((text) => text.slice(0, 10)),
      );
    case 'time':
      return fc.oneof(
        edges,
        dateTimes.map((text) => text.slice(11)),
      );
    case 'integer':
    case 'integer bounds':
    case 'number':
      return fc.oneof(edges, numbers, numbers.map(String));
    case 'string':
    case 'string length (code points)':
    case 'string length in a union':
      return fc.oneof(edges, unicodeText, numbers);
    case 'array':
      return fc.oneof(edges, fc.array(fc.oneof(numbers, fc.constantFrom('1', null)), { maxLength: 4 }));
    default:
      return fc.oneof(edges, unicodeText);
  }
}

const PARAMETERS = {
  type: 'object',
  properties: Object.fromEntries(RULES.map((rule, index) => [`p${index}`, rule.parameter])),
  additionalProperties: false,
};

/** A call: a few of the parameters, each with a value of its rule. */
export const calls: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    // About a quarter of the parameters in each call.
    ...RULES.map((rule) =>
      fc.oneof(
        { arbitrary: fc.constant(undefined), weight: 3 },
        {
          arbitrary: valuesFor(
            rule.name,
            rule.cases.map((edge) => edge.value),
          ),
          weight: 1,
        },
      ),
    ),
  )
  .map((values) => {
    const args: Record<string, unknown> = {};
    values.forEach((value, index) => {
      if (value !== undefined) args[`p${index}`] = value;
    });
    return args;
  });

interface Engines {
  compiled: PersonaToolExecutor;
  reference: PersonaToolExecutor;
  standard: ReturnType<typeof toStandardSchema>;
  walk: ReturnType<typeof canonicalCheck>;
  hot: ReturnType<typeof canonicalCheck>;
  output: ReturnType<ToolRegistry['get']>;
}

function engines(coercion: CoercionPolicy): Engines {
  const registry = new ToolRegistry({ logger: silentLogger });
  const definition = registry.registerJsonSchemaTool({ name: 'tool', parameters: PARAMETERS }, (params) => params);
  const output = registry.registerJsonSchemaTool(
    { name: 'output', parameters: { type: 'object', properties: {} }, outputSchema: PARAMETERS },
    () => ({}),
  );
  const options = { logger: silentLogger, telemetry: false as const, coercion };
  const hot = canonicalCheck(definition.parameters, DEFAULT_LIMITS, 'hot');
  if (!hot.specialize()) throw new Error('the hot tier did not compile the check');
  return {
    compiled: new PersonaToolExecutor(registry, options),
    reference: new PersonaToolExecutor(registry, { ...options, validation: 'reference' }),
    standard: toStandardSchema(registry, 'tool', { executor: options }),
    walk: canonicalCheck(definition.parameters, DEFAULT_LIMITS, 'walk'),
    hot,
    output,
  };
}

/** A message's lines, sorted: the same issues whatever their order. */
function lines(message: string | undefined): string {
  return (message ?? '').split('\n').sort().join('\n');
}

function summary(result: PrepareResult): { ok: boolean; value?: string; message?: string } {
  return result.ok ? { ok: true, value: jsonText(result.params) } : { ok: false, message: result.error.message };
}

/**
 * Runs `runs` seeded calls under `coercion` and returns the disagreements (at most 10, each with its call) and the
 * number of calls each engine decided.
 */
export async function runDifferential(
  coercion: CoercionPolicy,
  seed: number,
  runs: number,
): Promise<{ disagreements: string[]; calls: number; accepted: number }> {
  const target = engines(coercion);
  const disagreements: string[] = [];
  let count = 0;
  let accepted = 0;
  await fc.assert(
    fc.asyncProperty(calls, async (args) => {
      count++;
      const text = jsonText(args);
      const parsed = JSON.parse(text) as Record<string, unknown>;
      const compiled = summary(await target.compiled.prepare({ id: 'c', name: 'tool', arguments: text }, {}));
      const reference = summary(await target.reference.prepare({ id: 'r', name: 'tool', arguments: text }, {}));
      const standardResult = await target.standard['~standard'].validate(parsed);
      const standard =
        'issues' in standardResult && standardResult.issues !== undefined
          ? { ok: false }
          : { ok: true, value: jsonText((standardResult as { value: unknown }).value) };
      const walk = target.walk.accept(JSON.parse(text)) !== NOT_ACCEPTED;
      const hot = target.hot.accept(JSON.parse(text)) !== NOT_ACCEPTED;
      const problems: string[] = [];
      if (compiled.ok !== reference.ok || compiled.value !== reference.value)
        problems.push(`compiled ${JSON.stringify(compiled)} / reference ${JSON.stringify(reference)}`);
      // The same message lines: the reference path lists the issues in class-validator's order.
      else if (!compiled.ok && lines(compiled.message) !== lines(reference.message))
        problems.push(`messages: compiled ${compiled.message} / reference ${reference.message}`);
      if (standard.ok !== compiled.ok || (standard.ok && standard.value !== compiled.value))
        problems.push(`standard ${JSON.stringify(standard)} / compiled ${JSON.stringify(compiled)}`);
      if (hot !== walk) problems.push(`hot ${hot} / walk ${walk}`);
      if (hot && !(compiled.ok && compiled.value === text))
        problems.push(`hot accepted, compiled ${JSON.stringify(compiled)}`);
      if (coercion === 'strict') {
        const output = checkToolResult(target.output!, JSON.parse(text)).length === 0;
        if (output !== compiled.ok) problems.push(`output ${output} / compiled ${compiled.ok}`);
      }
      if (compiled.ok) accepted++;
      if (problems.length > 0 && disagreements.length < 10) disagreements.push(`${text}: ${problems.join('; ')}`);
    }),
    { seed, numRuns: runs },
  );
  return { disagreements, calls: count, accepted };
}
