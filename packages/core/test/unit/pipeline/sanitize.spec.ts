import 'reflect-metadata';
import { DEFAULT_LIMITS, InvalidArgumentsError } from '@toolwright/core';
import { sanitizeArguments } from '@toolwright/core/internal';

describe('sanitizeArguments', () => {
  it('drops __proto__, constructor and prototype keys at every depth, recording each', () => {
    const parsed = JSON.parse(
      '{"a": {"__proto__": {"polluted": 1}, "b": [{"constructor": {"prototype": {}}}]}, "prototype": 1}',
    );
    const { value, transformations } = sanitizeArguments(parsed, DEFAULT_LIMITS);
    expect(value).toEqual({ a: { b: [{}] } });
    expect(Object.getPrototypeOf((value as { a: object }).a)).toBe(Object.prototype);
    expect(transformations.map((transformation) => transformation.path).sort()).toEqual([
      'a.__proto__',
      'a.b[0].constructor',
      'prototype',
    ]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it("copies, so later steps never touch the caller's object", () => {
    const input = { a: { b: 1 } };
    const { value } = sanitizeArguments(input, DEFAULT_LIMITS);
    expect(value).toEqual(input);
    expect(value['a']).not.toBe(input.a);
  });

  it('refuses objects nested beyond the limit, iteratively (100,000 levels)', () => {
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let index = 0; index < 100_000; index++) deep = deep['x'] = {};
    expect(() => sanitizeArguments(root, DEFAULT_LIMITS)).toThrow(InvalidArgumentsError);
  });

  it('refuses arrays over the item limit naming the path', () => {
    const limits = { ...DEFAULT_LIMITS, maxArrayItems: 3 };
    try {
      sanitizeArguments({ list: { items: [1, 2, 3, 4] } }, limits);
      throw new Error('expected a refusal');
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidArgumentsError);
      expect((error as InvalidArgumentsError).issues[0]).toMatchObject({ path: 'list.items', rule: 'max-items' });
    }
  });
});
