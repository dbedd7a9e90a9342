import 'reflect-metadata';
import { DEFAULT_LIMITS, type CoercionPolicy, type ObjectSchema } from '@toolwright/core';
import { compileNormalizer, INVALID, NormalizeState } from '@toolwright/core/internal';
import { object, prop } from './ir-builders';

function run(
  schema: ObjectSchema,
  value: unknown,
  policy: CoercionPolicy = 'safe',
  timeZone?: string,
  relativeDateTool = false,
) {
  const state = new NormalizeState({ limits: DEFAULT_LIMITS, timeZone, relativeDateTool });
  const output = compileNormalizer(schema, policy)(value, '', state);
  return {
    output,
    state,
    rules: state.transformations.map((transformation) => transformation.rule),
    issues: state.issues,
  };
}

function single(
  schema: Parameters<typeof prop>[1],
  value: unknown,
  policy: CoercionPolicy = 'safe',
  timeZone?: string,
) {
  const result = run(object([prop('x', schema)]), { x: value }, policy, timeZone);
  return { ...result, value: (result.output as Record<string, unknown>)['x'] };
}

const accepted = (
  schema: Parameters<typeof prop>[1],
  input: unknown,
  expected: unknown,
  rule?: string,
  policy: CoercionPolicy = 'safe',
) => {
  const result = single(schema, input, policy);
  expect(result.issues).toEqual([]);
  expect(result.value).toEqual(expected);
  expect(result.rules).toEqual(rule ? [rule] : []);
  if (rule) expect(result.state.transformations[0]).toEqual({ path: 'x', rule, from: input, to: expected });
};

const refused = (schema: Parameters<typeof prop>[1], input: unknown, policy: CoercionPolicy = 'safe') => {
  const result = single(schema, input, policy);
  expect(result.issues).toHaveLength(1);
  expect(result.issues[0]!.path).toBe('x');
  return result.issues[0]!;
};

describe('normalizer (pipeline step 4): scalar rules, recovered and refused', () => {
  it('integers: integral numbers and numeric strings without a fraction', () => {
    accepted({ kind: 'int' }, 10, 10);
    accepted({ kind: 'int' }, '10', 10, 'string-to-integer');
    accepted({ kind: 'int' }, '10.0', 10, 'string-to-integer');
    accepted({ kind: 'int' }, ' -7 ', -7, 'string-to-integer');
    expect(refused({ kind: 'int' }, '10x').message).toBe('"x" must be an integer, but received "10x". Example: 1.');
    expect(refused({ kind: 'int' }, 10.5).message).toContain('it has a fractional part');
    expect(refused({ kind: 'int' }, '10.5').message).toContain('fractional part');
    expect(refused({ kind: 'int' }, true).rule).toBe('type');
    expect(refused({ kind: 'int' }, 9007199254740993).message).toContain('2^53 - 1');
    expect(refused({ kind: 'int' }, '1e400').rule).toBe('type');
  });

  it('numbers: strings in JSON number grammar only', () => {
    accepted({ kind: 'float' }, 2.5, 2.5);
    accepted({ kind: 'float' }, '2.5', 2.5, 'string-to-number');
    accepted({ kind: 'float' }, '-1e3', -1000, 'string-to-number');
    refused({ kind: 'float' }, 'NaN');
    refused({ kind: 'float' }, '0x10');
    refused({ kind: 'float' }, '1,5');
    refused({ kind: 'float' }, '');
  });

  it('booleans: true/false any case, yes/no, 1/0', () => {
    accepted({ kind: 'bool' }, false, false);
    accepted({ kind: 'bool' }, 'TRUE', true, 'string-to-boolean');
    accepted({ kind: 'bool' }, 'no', false, 'string-to-boolean');
    accepted({ kind: 'bool' }, '1', true, 'string-to-boolean');
    accepted({ kind: 'bool' }, 0, false, 'number-to-boolean');
    expect(refused({ kind: 'bool' }, 'maybe').message).toBe(
      '"x" must be a boolean (true or false), but received "maybe". Example: true.',
    );
    refused({ kind: 'bool' }, 2);
  });

  it('strings: a number or boolean given for a string', () => {
    accepted({ kind: 'string' }, 'a', 'a');
    accepted({ kind: 'string' }, 12, '12', 'number-to-string');
    accepted({ kind: 'string' }, false, 'false', 'boolean-to-string');
    refused({ kind: 'string' }, { a: 1 });
    refused({ kind: 'string' }, ['a']);
  });

  it('enums: exact, else a unique case-insensitive match, else refused listing the values', () => {
    const schema = { kind: 'string', enum: ['low', 'High', 'MEDIUM'] } as const;
    accepted(schema, 'low', 'low');
    accepted(schema, 'high', 'High', 'enum-case');
    accepted(schema, 'Medium', 'MEDIUM', 'enum-case');
    const issue = refused(schema, 'urgent');
    expect(issue.rule).toBe('enum');
    expect(issue.message).toBe('"x" must be one of "low", "High", "MEDIUM", but received "urgent". Example: "low".');
    const ambiguous = { kind: 'string', enum: ['a', 'A'] } as const;
    refused(ambiguous, 'a ');
    accepted({ kind: 'int', enum: [1, 2, 3] }, '2', 2, 'string-to-integer');
    refused({ kind: 'int', enum: [1, 2, 3] }, 4);
  });

  it('dates: YYYY-MM-DD that exists', () => {
    accepted({ kind: 'date' }, '2026-02-28', '2026-02-28');
    refused({ kind: 'date' }, '2026-02-30');
    expect(refused({ kind: 'date' }, '2026-02-28T10:00:00Z').message).toContain('time of day');
    refused({ kind: 'date' }, '02/28/2026');
    expect(refused({ kind: 'date' }, 'tomorrow').rule).toBe('relative-date');
  });

  it('date-times: ISO-8601 with an offset; lossless reformatting recorded', () => {
    accepted({ kind: 'datetime' }, '2026-11-21T09:00:00+01:00', '2026-11-21T09:00:00+01:00');
    accepted({ kind: 'datetime' }, '2026-11-21T09:00:00.123Z', '2026-11-21T09:00:00.123Z');
    accepted({ kind: 'datetime' }, '2026-11-21 09:00:00+01:00', '2026-11-21T09:00:00+01:00', 'datetime-format');
    accepted({ kind: 'datetime' }, '2026-11-21T09:00+0100', '2026-11-21T09:00:00+01:00', 'datetime-format');
    accepted({ kind: 'datetime' }, '2026-11-21t09:00:00z', '2026-11-21T09:00:00Z', 'datetime-format');
    expect(refused({ kind: 'datetime' }, '2026-11-21T09:00:00').message).toContain('no UTC offset');
    expect(refused({ kind: 'datetime' }, '2026-11-21').message).toContain('without a time of day');
    refused({ kind: 'datetime' }, '2026-13-01T09:00:00Z');
    refused({ kind: 'datetime' }, '2026-11-21T25:00:00Z');
  });

  it('date-times without an offset take the context time zone, DST-aware', () => {
    const winter = single({ kind: 'datetime' }, '2026-01-15T09:00:00', 'safe', 'Europe/Berlin');
    expect(winter.value).toBe('2026-01-15T09:00:00+01:00');
    expect(winter.rules).toEqual(['datetime-context-time-zone']);
    expect(single({ kind: 'datetime' }, '2026-07-15T09:00:00', 'safe', 'Europe/Berlin').value).toBe(
      '2026-07-15T09:00:00+02:00',
    );
    expect(single({ kind: 'datetime' }, '2026-07-15T09:00', 'safe', 'America/New_York').value).toBe(
      '2026-07-15T09:00:00-04:00',
    );
    expect(single({ kind: 'datetime' }, '2026-11-01T01:30:00', 'safe', 'America/New_York').value).toBe(
      '2026-11-01T01:30:00-04:00',
    );
    expect(single({ kind: 'datetime' }, '2026-01-15T09:00:00', 'safe', 'Not/AZone').issues).toHaveLength(1);
    expect(single({ kind: 'datetime' }, '2026-01-15T09:00:00', 'strict', 'Europe/Berlin').issues).toHaveLength(1);
  });

  it('relative phrases are refused with a pointer to resolve_relative_date when it is registered', () => {
    const without = run(object([prop('when', { kind: 'datetime' })]), { when: 'tomorrow' }, 'safe', undefined, false);
    expect(without.issues[0]!.message).toContain('send the absolute date');
    const withTool = run(
      object([prop('when', { kind: 'datetime' })]),
      { when: 'tomorrow at 9' },
      'safe',
      undefined,
      true,
    );
    expect(withTool.issues[0]!.rule).toBe('relative-date');
    expect(withTool.issues[0]!.message).toContain('call resolve_relative_date with the phrase first');
  });

  it('nullable values keep null', () => {
    accepted({ kind: 'string', nullable: true }, null, null);
  });
});

describe('normalizer: arrays and objects', () => {
  const datetimes = { kind: 'array', items: { kind: 'datetime' } } as const;

  it('arrays: a JSON string of an array, or a single element', () => {
    accepted(datetimes, ['2026-11-21T09:00:00Z'], ['2026-11-21T09:00:00Z']);
    accepted(datetimes, '["2026-11-21T09:00:00Z"]', ['2026-11-21T09:00:00Z'], 'json-string-to-array');
    accepted(datetimes, '2026-11-21T09:00:00Z', ['2026-11-21T09:00:00Z'], 'single-to-array');
    const python = single({ kind: 'array', items: { kind: 'int' } }, "['1', 2]");
    expect(python.value).toEqual([1, 2]);
    expect(python.rules).toEqual(['json-string-to-array', 'string-to-integer']);
  });

  it('array items are normalized with indexed paths', () => {
    const result = single({ kind: 'array', items: { kind: 'int' } }, ['1', 2, 'x']);
    expect(result.state.transformations).toEqual([{ path: 'x[0]', rule: 'string-to-integer', from: '1', to: 1 }]);
    expect(result.issues.map((issue) => issue.path)).toEqual(['x[2]']);
  });

  it('lenient splits "a, b" into an array; safe wraps it whole', () => {
    const strings = { kind: 'array', items: { kind: 'string' } } as const;
    expect(single(strings, 'a, b', 'lenient').value).toEqual(['a', 'b']);
    expect(single(strings, 'a, b', 'lenient').rules).toEqual(['comma-separated-to-array']);
    expect(single({ kind: 'array', items: { kind: 'int' } }, '1, 2', 'lenient').value).toEqual([1, 2]);
    expect(single(strings, 'a, b', 'safe').value).toEqual(['a, b']);
    refused(strings, 'a, b', 'strict');
  });

  it('objects: a JSON or Python-literal string of an object', () => {
    const point = object([prop('lat', { kind: 'float' }), prop('lon', { kind: 'float' })]);
    accepted(point, '{"lat": 1.5, "lon": 2}', { lat: 1.5, lon: 2 }, 'json-string-to-object');
    accepted(point, "{'lat': 1.5, 'lon': 2}", { lat: 1.5, lon: 2 }, 'json-string-to-object');
    refused(point, '{"lat": 1.5, "lon": 2', 'safe');
    refused(point, '{"lat": 1.5}', 'strict');
  });

  it('lenient: "Label: description" and "k=v,k2=v2" to objects of that shape', () => {
    const option = object([
      prop('label', { kind: 'string' }),
      prop('description', { kind: 'string' }),
      prop('proposedBy', { kind: 'string' }, { required: false }),
    ]);
    const options = { kind: 'array', items: option, minItems: 2 } as const;
    const result = single(options, ['Cheap: the low-cost plan', 'Fast: ship this week'], 'lenient');
    expect(result.value).toEqual([
      { label: 'Cheap', description: 'the low-cost plan' },
      { label: 'Fast', description: 'ship this week' },
    ]);
    expect(result.rules).toEqual(['labelled-string-to-object', 'labelled-string-to-object']);
    expect(single(option, 'label=Cheap, description=low cost', 'lenient').value).toEqual({
      label: 'Cheap',
      description: 'low cost',
    });
    expect(single(option, 'Cheap: the low-cost plan', 'safe').issues).toHaveLength(1);
  });

  it('keys: exact, alias, then a unique snake/camel/kebab/case match; unknown keys dropped (rejected under strict)', () => {
    const schema = object([
      prop('resolvedDatetimes', datetimes),
      prop('calendarId', { kind: 'string' }, { aliases: ['calendar'] }),
      prop('maxResults', { kind: 'int' }, { required: false }),
    ]);
    const result = run(schema, {
      resolved_datetimes: ['2026-11-21T09:00:00Z'],
      calendar: 'work',
      'max-results': '5',
      extra: 1,
    });
    expect(result.issues).toEqual([]);
    expect(result.output).toEqual({ resolvedDatetimes: ['2026-11-21T09:00:00Z'], calendarId: 'work', maxResults: 5 });
    expect(result.state.transformations).toEqual([
      { path: 'resolvedDatetimes', rule: 'key-case', from: 'resolved_datetimes', to: 'resolvedDatetimes' },
      { path: 'calendarId', rule: 'alias-key', from: 'calendar', to: 'calendarId' },
      { path: 'maxResults', rule: 'key-case', from: 'max-results', to: 'maxResults' },
      { path: 'maxResults', rule: 'string-to-integer', from: '5', to: 5 },
      { path: 'extra', rule: 'dropped-unknown-key', from: 1, to: undefined },
    ]);
    const strict = run(schema, { resolvedDatetimes: [], calendar: 'work', extra: 1, CalendarId: 'x' }, 'strict');
    expect(strict.issues.map((issue) => [issue.path, issue.rule])).toEqual([
      ['extra', 'unknown-key'],
      ['CalendarId', 'unknown-key'],
    ]);
  });

  it('the same parameter twice: identical values collapse, different values are refused', () => {
    const schema = object([prop('userId', { kind: 'int' })]);
    expect(run(schema, { userId: 1, user_id: 1 }).rules).toEqual(['key-case', 'duplicate-key']);
    expect(run(schema, { userId: 1, user_id: 2 }).issues[0]!.message).toContain(
      'was given twice, as "userId" and as "user_id"',
    );
  });

  it('null for an optional parameter means absent; for a required one it is refused', () => {
    const schema = object([prop('a', { kind: 'string' }), prop('b', { kind: 'int' }, { required: false })]);
    const result = run(schema, { a: 'x', b: null });
    expect(result.output).toEqual({ a: 'x' });
    expect(result.rules).toEqual(['null-as-absent']);
    expect(run(schema, { a: null }).issues.map((issue) => [issue.path, issue.rule])).toEqual([['a', 'required']]);
    expect(run(schema, { a: 'x', b: null }, 'strict').issues).toHaveLength(1);
  });

  it('reports missing required parameters with what to send', () => {
    const schema = object([prop('question', { kind: 'string' }), prop('count', { kind: 'int', minimum: 1 })]);
    expect(run(schema, {}).issues.map((issue) => issue.message)).toEqual([
      '"question" is required: send a string. Example: "text".',
      '"count" is required: send an integer >= 1. Example: 1.',
    ]);
  });

  it('model-supplied context fields are dropped, at the top and nested, and reported as security events', () => {
    const schema = object([
      prop('title', { kind: 'string' }),
      prop('sessionId', { kind: 'string' }, { context: 'session_id' }),
      prop('meta', { kind: 'object', properties: [], additionalProperties: false }, { required: false }),
    ]);
    const result = run(schema, {
      title: 't',
      session_id: 'evil',
      SessionId: 'evil2',
      job_id: 'x',
      meta: { flow_step_id: 'y' },
    });
    expect(result.output).toEqual({ title: 't', meta: {} });
    expect(result.state.securityEvents.map((event) => [event.path, event.contextKey])).toEqual([
      ['sessionId', 'session_id'],
      ['sessionId', 'session_id'],
      ['job_id', 'job_id'],
      ['meta.flow_step_id', 'flow_step_id'],
    ]);
    expect(result.issues).toEqual([]);
  });

  it('free-form objects keep their keys; additionalProperties schemas normalize extra values', () => {
    const freeForm = object([prop('data', { kind: 'object', properties: [], additionalProperties: true })]);
    expect(run(freeForm, { data: { anything: [1, { b: 2 }] } }).output).toEqual({ data: { anything: [1, { b: 2 }] } });
    const counts = object([prop('counts', { kind: 'object', properties: [], additionalProperties: { kind: 'int' } })]);
    const result = run(counts, { counts: { a: '1', b: 2 } });
    expect(result.output).toEqual({ counts: { a: 1, b: 2 } });
    expect(result.state.transformations[0]).toEqual({ path: 'counts.a', rule: 'string-to-integer', from: '1', to: 1 });
  });

  it('unions: an exact variant first, then the first variant that normalizes', () => {
    const schema = { kind: 'union', variants: [{ kind: 'int' }, { kind: 'string' }] } as const;
    accepted(schema, 'abc', 'abc');
    accepted(schema, 5, 5);
    accepted(schema, '5', '5');
    refused(schema, { a: 1 });
  });

  it('per-parameter policy overrides the inherited one', () => {
    const schema = object([prop('strictCount', { kind: 'int', policy: 'strict' }), prop('count', { kind: 'int' })]);
    const result = run(schema, { strictCount: '1', count: '1' });
    expect(result.issues.map((issue) => issue.path)).toEqual(['strictCount']);
    expect(result.rules).toEqual(['string-to-integer']);
  });

  it('non-object arguments at the root are refused', () => {
    const result = run(object([]), 'text', 'strict');
    expect(result.output).toBe(INVALID);
    expect(result.issues).toHaveLength(1);
  });
});
