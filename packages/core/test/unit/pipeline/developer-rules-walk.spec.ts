import 'reflect-metadata';
import fc from 'fast-check';
import {
  IsEmail,
  IsUrl,
  IsUUID,
  Validate,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { ArrayOf, ToolParam } from '@toolwright/core';
import { buildObjectSchema } from '../../../src/validation/build';
import {
  developerRulesCheckFor,
  developerRulesFindFor,
  type DeveloperRulesCheck,
} from '../../../src/pipeline/developer-rules';
import type { ValidationIssue } from '../../../src/types/execution';

/**
 * The developer-rules walk (`runPlan` in pipeline/developer-rules.ts, the one implementation since issue 26 removed the
 * generated runner) with the fast rule implementations it uses (pipeline/fast-validators.ts, called inline for a rule
 * of one fast constraint) against the same walk with class-validator's own constraint for every rule: on random
 * records (valid and invalid values, null, missing, wrong shapes, arrays where objects belong and the reverse, Sets,
 * hostile property names), both return the same thing (nothing, or a Promise) and push the same issues in the same
 * order, with the same paths, rules and messages.
 */

const SEED = 20261126;
const RUNS = 4_000;

const HOSTILE = '"));globalThis.pwned=1;//';
const QUOTE = 'a"b\\c*/${x}\u2028\u2029';
const LONE = 'lone\ud800';
const LONG = 'x'.repeat(10_000);

@ValidatorConstraint({ name: 'startsWithA' })
class StartsWithA implements ValidatorConstraintInterface {
  validate(value: unknown) {
    return typeof value === 'string' && value.startsWith('a');
  }
  defaultMessage() {
    return '$property must start with "a" ($value, $target)';
  }
}

/** Answers with a Promise for numbers (resolved at once), synchronously for anything else. */
@ValidatorConstraint({ name: 'maybeLater' })
class MaybeLater implements ValidatorConstraintInterface {
  validate(value: unknown) {
    if (typeof value === 'number') return Promise.resolve(value > 0);
    return value !== 'later-bad';
  }
  defaultMessage() {
    return '$property is refused';
  }
}

class Leaf {
  @ToolParam({ description: 'Email' }) @IsEmail() email!: string;
  @ToolParam({ required: false }) @IsUrl() site?: string;
  @ToolParam({ required: false }) @IsUUID() @Validate(StartsWithA) id?: string;
  @ToolParam({ required: false }) @IsEmail({ allow_display_name: true }) named?: string;
  @ArrayOf('string', { required: false }) @IsEmail({}, { each: true }) emails?: string[];
  @ToolParam({ required: false }) @IsEmail() [HOSTILE]?: string;
  @ToolParam({ required: false }) @IsUrl() [QUOTE]?: string;
  @ToolParam({ required: false }) @IsUUID() [LONE]?: string;
  @ToolParam({ required: false }) @IsEmail() [LONG]?: string;
}

class Middle {
  @ToolParam({ description: 'Code' }) @Validate(StartsWithA) code!: string;
  @ToolParam({ required: false, type: () => Leaf }) leaf?: Leaf;
  @ArrayOf(() => Leaf, { required: false }) leaves?: Leaf[];
}

class Root {
  @ToolParam({ description: 'Owner' }) @IsEmail() owner!: string;
  @ToolParam({ required: false }) @IsUUID() ref?: string;
  @ToolParam({ required: false, type: () => Middle }) middle?: Middle;
  @ArrayOf(() => Middle, { required: false }) middles?: Middle[];
  @ArrayOf(() => Leaf, { required: false }) [HOSTILE]?: Leaf[];
}

class AsyncRoot {
  @ToolParam({ description: 'Owner' }) @IsEmail() owner!: string;
  @ToolParam({ type: 'int', required: false }) @Validate(MaybeLater) seats?: number;
  @ArrayOf(() => Leaf, { required: false }) leaves?: Leaf[];
}

const email = fc.constantFrom('user1@example.com', 'a.b@x-y.co', 'nope', 'x@y', '', 'a@b.c1', '"q"@example.com');
const scalar = fc.oneof(
  email,
  fc.constantFrom(
    'https://example.com/a',
    'not a url',
    '00000000-0000-0000-0000-000000000000',
    'a0000000-0000-4000-8000-000000000000',
    'abc',
    'later-bad',
    'Name <n@example.com>',
  ),
  fc.integer({ min: -3, max: 3 }),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
);
const list = fc.array(scalar, { maxLength: 3 });
const value = fc.oneof({ weight: 6, arbitrary: scalar }, { weight: 1, arbitrary: list });
const leafRecord = fc.record(
  {
    email: value,
    site: value,
    id: value,
    named: value,
    emails: fc.oneof(
      list,
      list.map((items) => new Set(items)),
      scalar,
    ),
    [HOSTILE]: value,
    [QUOTE]: value,
    [LONE]: value,
    [LONG]: value,
  },
  { requiredKeys: [] },
);
const leafish = fc.oneof({ weight: 5, arbitrary: leafRecord }, { weight: 1, arbitrary: value });
const leaves = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.oneof(leafRecord, scalar), { maxLength: 4 }) },
  { weight: 1, arbitrary: leafRecord },
  { weight: 1, arbitrary: scalar },
);
const middleRecord = fc.record({ code: value, leaf: leafish, leaves }, { requiredKeys: [] });
const rootRecord = fc.record(
  {
    owner: value,
    ref: value,
    middle: fc.oneof(
      { weight: 4, arbitrary: middleRecord },
      { weight: 1, arbitrary: fc.array(middleRecord) },
      {
        weight: 1,
        arbitrary: scalar,
      },
    ),
    middles: fc.oneof(fc.array(fc.oneof(middleRecord, scalar), { maxLength: 3 }), scalar),
    [HOSTILE]: leaves,
  },
  { requiredKeys: [] },
);
const asyncRecord = fc.record({ owner: value, seats: value, leaves }, { requiredKeys: [] });

function checks(dto: new () => object): { fast: DeveloperRulesCheck; reference: DeveloperRulesCheck } {
  const schema = buildObjectSchema(dto);
  const fast = developerRulesCheckFor(schema, 'fast');
  const reference = developerRulesCheckFor(schema, 'class-validator');
  if (!fast || !reference) throw new Error('expected a check plan');
  return { fast, reference };
}

async function run(
  check: DeveloperRulesCheck,
  record: object,
  path: string,
): Promise<{ promise: boolean; issues: ValidationIssue[] }> {
  const issues: ValidationIssue[] = [];
  const answer = check(record, path, issues);
  const promise = answer instanceof Promise;
  if (promise) await answer;
  return { promise, issues };
}

async function disagreements(
  dto: new () => object,
  records: readonly object[],
): Promise<{ found: unknown[]; issues: number; promises: number }> {
  const { fast, reference } = checks(dto);
  const found: unknown[] = [];
  let issues = 0;
  let promises = 0;
  for (const [index, record] of records.entries()) {
    const path = index % 5 === 0 ? 'outer' : '';
    const expected = await run(reference, record, path);
    const actual = await run(fast, record, path);
    issues += expected.issues.length;
    if (expected.promise) promises++;
    try {
      expect(actual).toEqual(expected);
    } catch {
      found.push({ record, expected, actual });
      if (found.length > 3) break;
    }
  }
  return { found, issues, promises };
}

describe('the developer-rules walk with its fast rules against class-validator’s own constraints', () => {
  afterEach(() => {
    expect((globalThis as Record<string, unknown>)['pwned']).toBeUndefined();
  });

  it(`agrees on ${RUNS.toLocaleString('en-US')} random records of a three-level DTO with hostile property names (fixed seed)`, async () => {
    const records = fc.sample(rootRecord, { seed: SEED, numRuns: RUNS });
    const { found, issues } = await disagreements(Root, records);
    expect(found).toEqual([]);
    // The records reach rules that fail and rules that pass, at every level.
    expect(issues).toBeGreaterThan(RUNS);
  });

  it(`agrees on ${RUNS.toLocaleString('en-US')} random records where some rules answer with a Promise (fixed seed)`, async () => {
    const records = fc.sample(asyncRecord, { seed: SEED + 1, numRuns: RUNS });
    const { found, promises } = await disagreements(AsyncRoot, records);
    expect(found).toEqual([]);
    expect(promises).toBeGreaterThan(RUNS / 10);
    expect(promises).toBeLessThan(RUNS);
  });

  it('reads hostile property names as properties, and reports them by name', async () => {
    const { fast, reference } = checks(Root);
    const record = { owner: 'user1@example.com', [HOSTILE]: [{ email: 'a@example.com', [HOSTILE]: 'nope' }] };
    const actual = await run(fast, record, '');
    expect(actual).toEqual(await run(reference, record, ''));
    expect(actual.promise).toBe(false);
    expect(actual.issues).toHaveLength(1);
    expect(actual.issues[0]!.path).toContain(HOSTILE);
    expect(actual.issues[0]!.rule).toBe('format');
  });

  /**
   * The executor calls `find`, which makes no issue array until a rule fails: on the same random records (and records
   * whose rules all pass), the fast `find` answers `undefined` exactly where the reference `check` finds nothing and
   * answers synchronously, a Promise exactly where it answers one, and otherwise the same issues in order.
   */
  it.each([
    ['Root', Root, rootRecord, SEED + 2],
    ['AsyncRoot', AsyncRoot, asyncRecord, SEED + 3],
  ] as const)(
    `find agrees with the reference check on %s records, allocating nothing when all pass (fixed seed)`,
    async (_, dto, arbitrary, seed) => {
      const schema = buildObjectSchema(dto);
      const find = developerRulesFindFor(schema, 'fast');
      const { reference } = checks(dto);
      if (!find) throw new Error('expected a check plan');
      const passing = { owner: 'user1@example.com', middles: [{ code: 'abc', leaves: [{ email: 'a@b.co' }] }] };
      const records: object[] = [...fc.sample(arbitrary, { seed, numRuns: RUNS }), passing, {}];
      const found: unknown[] = [];
      let none = 0;
      let some = 0;
      for (const [index, record] of records.entries()) {
        const path = index % 5 === 0 ? 'outer' : '';
        const expected = await run(reference, record, path);
        const answer = find(record, path);
        const promise = answer instanceof Promise;
        const issues = promise ? await answer : answer;
        if (issues === undefined) none++;
        else some++;
        const agrees =
          promise === expected.promise &&
          (issues === undefined
            ? !promise && expected.issues.length === 0
            : (promise || issues.length > 0) && JSON.stringify(issues) === JSON.stringify(expected.issues));
        if (!agrees) found.push({ record, expected, actual: { promise, issues } });
        if (found.length > 3) break;
      }
      expect(found).toEqual([]);
      expect(none).toBeGreaterThan(0);
      expect(some).toBeGreaterThan(RUNS / 2);
    },
  );
});
