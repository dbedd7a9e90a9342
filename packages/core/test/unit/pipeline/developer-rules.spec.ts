import 'reflect-metadata';
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
  developerRulesPlan,
  type DeveloperRulesCheck,
} from '../../../src/pipeline/developer-rules';
import type { ValidationIssue } from '../../../src/types/execution';

@ValidatorConstraint({ name: 'isEvenLater', async: true })
class IsEvenLater implements ValidatorConstraintInterface {
  async validate(value: unknown) {
    await new Promise((resolve) => setImmediate(resolve));
    return typeof value === 'number' && value % 2 === 0;
  }
  defaultMessage() {
    return '$property must be even';
  }
}

/** Returns a Promise without declaring `async: true`: the plan must still wait for it. */
@ValidatorConstraint({ name: 'isShortLater' })
class IsShortLater implements ValidatorConstraintInterface {
  validate(value: unknown) {
    return Promise.resolve(typeof value === 'string' && value.length < 5);
  }
  defaultMessage() {
    return '$property must be shorter than 5 characters';
  }
}

class Person {
  @ToolParam({ description: 'Email' }) @IsEmail() email!: string;
  @ToolParam({ required: false }) @IsUrl() homepage?: string;
}

class SyncParams {
  @ToolParam({ description: 'Id' }) @IsUUID() id!: string;
  @ArrayOf(() => Person) people!: Person[];
}

class AsyncParams {
  @ToolParam({ description: 'Id' }) @IsUUID() id!: string;
  @ToolParam({ type: 'int' }) @Validate(IsEvenLater) seats!: number;
  @ToolParam({ description: 'Code' }) @Validate(IsShortLater) code!: string;
  @ArrayOf(() => Person) people!: Person[];
}

class Team {
  @ToolParam({ description: 'Name' }) name!: string;
  @ToolParam({ required: false, type: () => Person }) lead?: Person;
  @ArrayOf(() => Person, { required: false }) members?: Person[];
  @ArrayOf('string', { required: false }) @IsEmail({}, { each: true }) aliases?: string[];
}

class Organisation {
  @ToolParam({ description: 'Owner' }) @IsEmail() owner!: string;
  @ToolParam({ required: false, type: () => Team }) board?: Team;
  @ArrayOf(() => Team) teams!: Team[];
}

/**
 * Every developer rule of `dto` as a check, the fast implementations included (the executor's own plan leaves out the
 * format rules the compiled path enforces: tested below).
 */
function checkOf(dto: Function): DeveloperRulesCheck {
  const check = developerRulesCheckFor(buildObjectSchema(dto as new () => object), 'fast');
  if (check === undefined) throw new Error('expected a check');
  return check;
}

class FormatsOnly {
  @ToolParam({ description: 'Email' }) @IsEmail() email!: string;
  @ToolParam({ description: 'Id' }) @IsUUID('all') id!: string;
  @ArrayOf('string', { required: false }) @IsEmail({}, { each: true }) cc?: string[];
}

class FormatsWithOwnOptions {
  @ToolParam({ description: 'Email' }) @IsEmail({ allow_display_name: true }) email!: string;
  @ToolParam({ description: 'Id' }) @IsUUID('4') id!: string;
}

function instanceOf<T extends object>(dto: new () => T, values: Record<string, unknown>): T {
  return Object.assign(new dto(), values);
}

function person(email: string, homepage?: string): Person {
  return instanceOf(Person, homepage === undefined ? { email } : { email, homepage });
}

describe('developer rules plan', () => {
  it('runs synchronously (returns undefined) when every rule is synchronous, with the issues in rule order', () => {
    const check = checkOf(SyncParams);
    const issues: ValidationIssue[] = [];
    const result = check(
      instanceOf(SyncParams, {
        id: 'not-a-uuid',
        people: [person('a@b.co'), person('nope', 'not a url'), person('x@y')],
      }),
      '',
      issues,
    );
    expect(result).toBeUndefined();
    expect(issues.map((issue) => issue.path)).toEqual([
      'id',
      'people[1].email',
      'people[1].homepage',
      'people[2].email',
    ]);
    const clean: ValidationIssue[] = [];
    expect(
      check(
        instanceOf(SyncParams, {
          id: '9deb20fe-a6e0-355c-81ea-288b009e4f6d',
          people: [person('a@b.co', 'https://example.com')],
        }),
        '',
        clean,
      ),
    ).toBeUndefined();
    expect(clean).toEqual([]);
  });

  it('names each issue by its full path two levels deep; an `each` rule gives one issue, at its first failing item', () => {
    const check = checkOf(Organisation);
    const team = (values: Record<string, unknown>) => instanceOf(Team, { name: 't', ...values });
    const issues: ValidationIssue[] = [];
    const organisation = instanceOf(Organisation, {
      owner: 'owner@example.com',
      board: team({ lead: person('nope'), aliases: ['a@b.co', 'bad', 'worse'] }),
      teams: [
        team({ members: [person('a@b.co'), person('x@y', 'not a url')] }),
        team({}),
        team({ lead: person('c@d.co'), members: [person('e@f.co')], aliases: ['g@h.co'] }),
        team({ lead: person('lead'), aliases: ['alias'] }),
      ],
    });
    expect(check(organisation, '', issues)).toBeUndefined();
    expect(issues.map((issue) => [issue.path, issue.rule, issue.received])).toEqual([
      ['board.aliases[1]', 'format', '"bad"'],
      ['board.lead.email', 'format', '"nope"'],
      ['teams[0].members[1].email', 'format', '"x@y"'],
      ['teams[0].members[1].homepage', 'format', '"not a url"'],
      ['teams[3].aliases[0]', 'format', '"alias"'],
      ['teams[3].lead.email', 'format', '"lead"'],
    ]);
    // A nested plan called at a path of its own prefixes every issue with it.
    const prefixed: ValidationIssue[] = [];
    expect(check(organisation, 'orgs[2]', prefixed)).toBeUndefined();
    expect(prefixed.map((issue) => issue.path)).toEqual(issues.map((issue) => `orgs[2].${issue.path}`));
    const valid: ValidationIssue[] = [];
    expect(
      check(instanceOf(Organisation, { owner: 'o@p.co', teams: [team({ aliases: ['q@r.co'] })] }), '', valid),
    ).toBeUndefined();
    expect(valid).toEqual([]);
  });

  it('returns a Promise only when a constraint answers with one, and keeps the same order as the synchronous run', async () => {
    const check = checkOf(AsyncParams);
    const issues: ValidationIssue[] = [];
    const result = check(
      instanceOf(AsyncParams, { id: 'bad', seats: 3, code: 'too long', people: [person('nope')] }),
      '',
      issues,
    );
    expect(result).toBeInstanceOf(Promise);
    await result;
    expect(issues.map((issue) => issue.path)).toEqual(['id', 'seats', 'code', 'people[0].email']);
    expect(issues[1]!.message).toContain('seats must be even');
    expect(issues[2]!.message).toContain('code must be shorter than 5 characters');

    const clean: ValidationIssue[] = [];
    const pending = check(
      instanceOf(AsyncParams, {
        id: '9deb20fe-a6e0-355c-81ea-288b009e4f6d',
        seats: 4,
        code: 'ok',
        people: [person('a@b.co')],
      }),
      '',
      clean,
    );
    expect(pending).toBeInstanceOf(Promise);
    await pending;
    expect(clean).toEqual([]);
  });

  it("leaves out of the executor's plan the format rules the compiled path enforces, and keeps those with other options", () => {
    // `@IsEmail()`, `@IsUUID('all')`, `@IsEmail({}, { each: true })` are `format: email` / `uuid` in the IR: checked once.
    const schema = buildObjectSchema(FormatsOnly);
    expect(schema.properties.map((property) => property.schema)).toEqual([
      expect.objectContaining({ kind: 'string', format: 'email' }),
      expect.objectContaining({ kind: 'string', format: 'uuid' }),
      expect.objectContaining({ kind: 'array', items: expect.objectContaining({ format: 'email' }) }),
    ]);
    expect(developerRulesPlan(schema).kind).toBe('none');
    // With other options each rule keeps its own meaning: no format in the IR, and the plan runs it.
    const own = buildObjectSchema(FormatsWithOwnOptions);
    expect(own.properties.map((property) => (property.schema as { format?: string }).format)).toEqual([
      undefined,
      undefined,
    ]);
    const plan = developerRulesPlan(own);
    if (plan.kind !== 'check') throw new Error(`expected a check plan, got ${plan.kind}`);
    const issues: ValidationIssue[] = [];
    const outcome = plan.check(
      instanceOf(FormatsWithOwnOptions, { email: 'Ana <ana@example.com>', id: 'nope' }),
      '',
      issues,
    );
    expect(outcome).toBeUndefined();
    expect(issues.map((issue) => issue.path)).toEqual(['id']);
  });
});
