import 'reflect-metadata';
import type { CoercionPolicy } from '@toolwright/core';
import { canonicalCheck, NOT_ACCEPTED, type CanonicalCheck } from '@toolwright/core/compile/canonical-check';
import { inspectParsedValue } from '@toolwright/core/pipeline/information-loss';
import { DEFAULT_LIMITS, type PipelineLimits } from '@toolwright/core/pipeline/limits';
import { CheckedArguments, parseArguments, parseCheckedArguments } from '@toolwright/core/pipeline/parse-arguments';
import { callTargetFor, type CallTarget } from '@toolwright/core/pipeline/unwrap-call';
import type { ObjectSchema } from '@toolwright/core/types/schema';
import { seededRandom } from '../support/seeded-random';
import { objectSchema, textFor, TOOL, type JsonSchema } from '../support/json-schema-texts';
import { showValue } from '../support/show-value';
import { compareWithoutFastPath, registerSchemaTool } from '../support/fast-path-executors';

/**
 * Issue 12, the fused-parse-check decision's differential test: the parse step with the canonical check folded into it
 * (`parseCheckedArguments`: the canonical check measures the length bound decision 0019's walk measured, and a compact
 * accepted text is decided by it without that walk) against the two steps as they were (`parseArguments`, then the
 * check on its result when the value is the pipeline's own). Over random JSON Schema tools (nested objects and arrays,
 * nullable values, bounds, enums, date-times, numbers without bounds, hostile and envelope-like property names) and
 * random texts for them (compact and spaced, duplicate keys at every depth with equal and other values, integers beyond
 * 2^53, escapes in keys and strings, wrapped calls, prototype keys, double encoding, fences, broken JSON), under each
 * policy and two sets of limits: the same value, transformations, `owned` and answer of the check, or the same error.
 * Wherever the check accepts JSON.parse's value its bound is exactly the walk's. A subset also runs through executors
 * with and without the canonical check (results and log records byte for byte).
 */

const SEED = 0x2020_1226;
const SCHEMAS = 1_100;
const TEXTS_PER_SCHEMA = 30;
const EXECUTOR_TEXTS_PER_SCHEMA = 4;
const SMALL_LIMITS: PipelineLimits = { ...DEFAULT_LIMITS, maxDepth: 3, maxArrayItems: 4 };
const POLICIES: readonly CoercionPolicy[] = ['strict', 'safe', 'lenient'];

function failure(error: unknown): string {
  const thrown = error as Error & { issues?: unknown };
  return `error ${thrown.constructor.name} ${thrown.message} ${showValue(thrown.issues)}`;
}

/**
 * The fused step's outcome, and whether it decided without the old steps (its direct answer: JSON.parse's value itself,
 * which stands for the pipeline's own value, accepted, with nothing recorded).
 */
function fused(run: () => ReturnType<typeof parseCheckedArguments>): { outcome: string; direct: boolean } {
  try {
    const answer = run();
    const direct = !(answer instanceof CheckedArguments);
    const parsed = direct ? new CheckedArguments(answer, [], true, true) : answer;
    return {
      outcome: `ok ${showValue(parsed.value)} owned=${parsed.owned} accepted=${parsed.accepted} ${showValue(parsed.transformations)}`,
      direct,
    };
  } catch (error) {
    return { outcome: failure(error), direct: false };
  }
}

/** The two steps as they were: the parse step, then the canonical check on a value it owns. */
function twoSteps(run: () => ReturnType<typeof parseArguments>, check: CanonicalCheck): string {
  try {
    const parsed = run();
    const accepted = parsed.owned && check.accept(parsed.value) !== NOT_ACCEPTED;
    return `ok ${showValue(parsed.value)} owned=${parsed.owned} accepted=${accepted} ${showValue(parsed.transformations)}`;
  } catch (error) {
    return failure(error);
  }
}

interface Tool {
  readonly parameters: ObjectSchema;
  readonly target: CallTarget;
  readonly checks: Map<PipelineLimits, CanonicalCheck>;
}

function registered(schema: JsonSchema): Tool | undefined {
  const registry = registerSchemaTool(schema);
  if (registry === undefined) return undefined;
  const definition = registry.getEntry(TOOL)!.definition;
  return {
    parameters: definition.parameters,
    target: callTargetFor(definition, (name) => name === TOOL),
    checks: new Map(
      [DEFAULT_LIMITS, SMALL_LIMITS].map((limits) => [limits, canonicalCheck(definition.parameters, limits)]),
    ),
  };
}

describe('the parse step with the canonical check folded in (decision 0020, fused-parse-check)', () => {
  it(`answers as the two steps did on ${TEXTS_PER_SCHEMA} texts for each of ${SCHEMAS.toLocaleString('en-US')} random tools (seed ${SEED})`, () => {
    const random = seededRandom(SEED);
    const mismatches: string[] = [];
    const counts = {
      texts: 0,
      direct: 0,
      acceptedAfterSteps: 0,
      bounds: 0,
      unsafe: 0,
      droppedDuplicate: 0,
      droppedAtBound: 0,
      directByQuotes: 0,
      directWithBackslash: 0,
    };
    let tools = 0;
    for (let index = 0; index < SCHEMAS; index++) {
      const schema = objectSchema(random, 1);
      const tool = registered(schema);
      if (tool === undefined) continue;
      tools++;
      for (let call = 0; call < TEXTS_PER_SCHEMA; call++) {
        const text = textFor(random, schema);
        const limits = random.chance(0.2) ? SMALL_LIMITS : DEFAULT_LIMITS;
        const policy = random.pick(POLICIES);
        const check = tool.checks.get(limits)!;
        const actual = fused(() => parseCheckedArguments(text, policy, limits, tool.target, check));
        const expected = twoSteps(() => parseArguments(text, policy, limits, tool.target), check);
        counts.texts++;
        if (actual.direct) counts.direct++;
        else if (actual.outcome.includes('accepted=true')) counts.acceptedAfterSteps++;
        if (actual.outcome !== expected && mismatches.length < 5)
          mismatches.push(`${JSON.stringify(text)} (${policy}):\n  ${actual.outcome}\n  ${expected}`);
        // Wherever the check accepts JSON.parse's value, its bound is the walk's (NaN beyond 2^53).
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          continue;
        }
        const bound = check.accept(parsed);
        if (bound === NOT_ACCEPTED) continue;
        const keysAndStrings = check.keysAndStrings;
        const facts = inspectParsedValue(parsed, limits);
        const walk = facts.unsafeNumber ? Number.NaN : facts.minTextLength;
        counts.bounds++;
        if (facts.unsafeNumber) counts.unsafe++;
        if (facts.keys * 2 + facts.strings * 2 < countQuotes(text) && text.indexOf('\\') === -1)
          counts.droppedDuplicate++;
        if (text.length === walk + 5) counts.droppedAtBound++;
        if (actual.direct && !(text.length < walk + 5)) counts.directByQuotes++;
        if (actual.direct && text.includes('\\')) counts.directWithBackslash++;
        if (!Object.is(bound, walk) && mismatches.length < 5)
          mismatches.push(`bound of ${JSON.stringify(text)}: ${bound}, the walk's ${walk}`);
        if (keysAndStrings !== facts.keys + facts.strings && mismatches.length < 5)
          mismatches.push(
            `keys and strings of ${JSON.stringify(text)}: ${keysAndStrings}, the walk's ${facts.keys + facts.strings}`,
          );
      }
    }
    expect(mismatches).toEqual([]);
    // The generator reaches each case the fused step decides differently from the old steps' order.
    expect(tools).toBeGreaterThan(SCHEMAS * 0.7);
    expect(counts.texts).toBeGreaterThanOrEqual(20_000);
    expect(counts.direct).toBeGreaterThan(3_000);
    expect(counts.acceptedAfterSteps).toBeGreaterThan(300);
    expect(counts.unsafe).toBeGreaterThan(50);
    expect(counts.droppedDuplicate).toBeGreaterThan(200);
    expect(counts.droppedAtBound).toBeGreaterThan(100);
    expect(counts.directByQuotes).toBeGreaterThan(500);
    expect(counts.directWithBackslash).toBeGreaterThan(100);
  });

  it('gives the same results and log records through the executor as the executor without the check', async () => {
    const { mismatches, calls } = await compareWithoutFastPath(seededRandom(SEED + 1), {
      tools: SCHEMAS / 4,
      callsPerTool: EXECUTOR_TEXTS_PER_SCHEMA * 4,
      policies: POLICIES,
      text: textFor,
    });
    expect(mismatches).toEqual([]);
    expect(calls).toBeGreaterThan(2_000);
  });
});

function countQuotes(text: string): number {
  let count = 0;
  for (let at = text.indexOf('"'); at !== -1; at = text.indexOf('"', at + 1)) count++;
  return count;
}
