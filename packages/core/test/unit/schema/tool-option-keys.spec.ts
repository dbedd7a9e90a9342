import {
  TOOL_OPTION_KEYS,
  copyToolOptions,
  findInvalidToolOption,
  givesToolOption,
} from '../../../src/schema/tool-options';

/**
 * `givesToolOption` reads the option table's keys by name, so the table checks and copies nothing for a tool that
 * gives no option. It must know every key of the table: each one alone (own or inherited) counts as given.
 */
describe('the tool option table: the by-name "any option given?" check', () => {
  it('knows every key of the table, own or inherited, and nothing else', () => {
    expect(TOOL_OPTION_KEYS.length).toBeGreaterThan(10);
    for (const key of TOOL_OPTION_KEYS) {
      expect(givesToolOption({ [key]: 0 })).toBe(true);
      expect(givesToolOption(Object.create({ [key]: 0 }) as object)).toBe(true);
      // Given alone with a value no check accepts (a symbol), the table reports that very option.
      expect(findInvalidToolOption({ [key]: Symbol('bad') })?.option).toBe(key);
    }
    expect(givesToolOption({})).toBe(false);
    expect(givesToolOption({ name: 'x', description: 'y', params: class {}, other: 1 } as object)).toBe(false);
    expect(givesToolOption({ timeoutMs: undefined })).toBe(false);
  });

  it('copies the options given and only those; no option gives one shared frozen empty object', () => {
    expect(copyToolOptions({ name: 'x', timeoutMs: 5, tags: ['a'] })).toStrictEqual({ tags: ['a'], timeoutMs: 5 });
    const none = copyToolOptions({ name: 'x' });
    expect(none).toStrictEqual({});
    expect(Object.isFrozen(none)).toBe(true);
    expect(copyToolOptions({})).toBe(none);
  });
});
