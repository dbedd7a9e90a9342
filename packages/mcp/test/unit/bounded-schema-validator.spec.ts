import 'reflect-metadata';
import { DEFAULT_JSON_SCHEMA_LIMITS } from '@toolwright/core';
import { BoundedJsonSchemaValidator, MAX_UNTRUSTED_SCHEMA_BYTES, untrustedSchemaProblem } from '@toolwright/mcp';

function nested(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < depth; level++) schema = { type: 'object', properties: { inner: schema } };
  return schema;
}

describe('untrusted schema bounds (outputSchema, before Ajv compiles it)', () => {
  it('accepts an ordinary schema', () => {
    expect(
      untrustedSchemaProblem({
        type: 'object',
        properties: { events: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' } } },
      }),
    ).toBeUndefined();
  });

  it('refuses depth beyond the limit, without recursion (even 100,000 levels)', () => {
    expect(untrustedSchemaProblem(nested(10))).toBeUndefined();
    expect(untrustedSchemaProblem(nested(40))).toMatch(/^it is nested deeper than 32 levels \(at #\/properties\/inner/);
    expect(untrustedSchemaProblem(nested(100_000))).toMatch(/nested deeper than 32 levels/);
  });

  it('refuses too many nodes and too many bytes', () => {
    const wide = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 200 }, (_, index) => [`p${index}`, { type: 'string' }])),
    };
    expect(untrustedSchemaProblem(wide)).toBeUndefined();
    expect(untrustedSchemaProblem(wide, { ...DEFAULT_JSON_SCHEMA_LIMITS, maxNodes: 300 })).toBe(
      'it has more than 300 nodes',
    );
    const large = { type: 'string', description: 'x'.repeat(MAX_UNTRUSTED_SCHEMA_BYTES) };
    expect(untrustedSchemaProblem(large)).toBe(`it is larger than ${MAX_UNTRUSTED_SCHEMA_BYTES} bytes`);
  });

  it('refuses regular expressions that backtrack exponentially, and overlong ones', () => {
    expect(untrustedSchemaProblem({ type: 'string', pattern: '^(a+)+$' })).toBe(
      'its pattern at #/pattern has a nested quantifier (exponential backtracking): "^(a+)+$"',
    );
    expect(untrustedSchemaProblem({ type: 'object', patternProperties: { '^(x*)*y$': { type: 'string' } } })).toMatch(
      /^its patternProperties key at #\/patternProperties has a nested quantifier/,
    );
    expect(untrustedSchemaProblem({ type: 'string', pattern: 'a'.repeat(1_001) })).toBe(
      'its pattern at #/pattern is longer than 1000 characters',
    );
  });

  it('compiles what is in bounds; what is not never reaches Ajv, and every check against it fails with the reason', () => {
    const refused: string[] = [];
    const validator = new BoundedJsonSchemaValidator(DEFAULT_JSON_SCHEMA_LIMITS, (problem) => refused.push(problem));
    const ok = validator.getValidator<{ n: number }>({
      type: 'object',
      properties: { n: { type: 'integer' } },
      required: ['n'],
    });
    expect(ok({ n: 1 })).toEqual({ valid: true, data: { n: 1 }, errorMessage: undefined });
    expect(ok({}).valid).toBe(false);
    const started = performance.now();
    const redos = validator.getValidator({ type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } });
    expect(redos({ s: `${'a'.repeat(40)}!` })).toEqual({
      valid: false,
      data: undefined,
      errorMessage:
        'the output schema was refused: its pattern at #/properties/s/pattern has a nested quantifier (exponential backtracking): "^(a+)+$"',
    });
    // A guard against catastrophic backtracking (2^40 steps would take hours), not a speed target: loose enough for a
    // loaded machine.
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(refused).toHaveLength(1);
  });
});

describe('outputSchema patterns run on the linear-time engine (issue 11: a server froze the client for 55 s)', () => {
  const hostile: ReadonlyArray<readonly [string, string]> = [
    ['^(a|a)*$', `${'a'.repeat(29)}b`],
    ['^(a|a?)+$', `${'a'.repeat(29)}b`],
    ['^(a|aa)+$', `${'a'.repeat(46)}b`],
    ['^\\d*\\d*\\d*\\d*\\d*$', `${'1'.repeat(3_000)}a`],
  ];

  it.each(hostile)('validates a result against %s without backtracking', (pattern, subject) => {
    expect(untrustedSchemaProblem({ type: 'string', pattern })).toBeUndefined();
    const validator = new BoundedJsonSchemaValidator(DEFAULT_JSON_SCHEMA_LIMITS, () => undefined);
    const check = validator.getValidator<{ s: string }>({
      type: 'object',
      properties: { s: { type: 'string', pattern } },
    });
    const refused = check({ s: subject });
    expect(refused.valid).toBe(false);
    expect(refused.errorMessage).toMatch(/must match pattern/);
    expect(check({ s: subject.slice(0, -1) }).valid).toBe(true);
  });

  it('patternProperties keys run on the same engine', () => {
    const validator = new BoundedJsonSchemaValidator(DEFAULT_JSON_SCHEMA_LIMITS, () => undefined);
    const check = validator.getValidator({ type: 'object', patternProperties: { '^(a|a?)+$': { type: 'integer' } } });
    expect(check({ [`${'a'.repeat(29)}b`]: 'not checked' }).valid).toBe(true);
    expect(check({ aaaa: 'x' }).valid).toBe(false);
  });

  it('refuses an outputSchema whose pattern the linear engine cannot run (lookaround, backreferences)', () => {
    const refused: string[] = [];
    const validator = new BoundedJsonSchemaValidator(DEFAULT_JSON_SCHEMA_LIMITS, (problem) => refused.push(problem));
    const check = validator.getValidator({ type: 'string', pattern: '^(a+)\\1$' });
    expect(check('aa').valid).toBe(false);
    expect(refused).toEqual([expect.stringMatching(/^its pattern at #\/pattern cannot run on the linear-time engine/)]);
  });
});
