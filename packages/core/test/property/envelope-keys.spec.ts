import { hasOnlyEnvelopeKeys } from '@toolwright/core/pipeline/unwrap-call';
import { seededRandom } from '../support/seeded-random';

/**
 * Issue 12: the call-envelope test of the parse step reads the keys with `for...in` and an own-key check instead of
 * allocating `Object.keys`. Against the check it replaced, over generated objects: JSON.parse results, objects passed
 * as they are with inherited enumerable keys, own non-enumerable keys, keys shadowing inherited ones, no prototype.
 */

const ENVELOPE = ['name', 'arguments', 'parameters', 'function', 'type', 'id', 'call_id', 'index'];
const OTHERS = ['priority', 'title', '0', '__proto__', 'constructor', 'Name', ''];

function reference(value: Record<string, unknown>): boolean {
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => ENVELOPE.includes(key));
}

describe('hasOnlyEnvelopeKeys against Object.keys(...).every (issue 12)', () => {
  it('agrees on 20,000 generated objects (seed 12)', () => {
    const { below } = seededRandom(12);
    const pick = (keys: readonly string[]) => keys[below(keys.length)]!;
    const anyKey = () => (below(3) === 0 ? pick(OTHERS) : pick(ENVELOPE));
    let envelopes = 0;
    for (let index = 0; index < 20_000; index++) {
      const inherited: Record<string, unknown> = {};
      for (let count = below(3); count > 0; count--) inherited[anyKey()] = 1;
      const prototype = [Object.prototype, null, inherited][below(3)] as object | null;
      const value = Object.create(prototype) as Record<string, unknown>;
      for (let count = below(4); count > 0; count--) {
        const key = anyKey();
        if (below(5) === 0) Object.defineProperty(value, key, { value: 1, enumerable: false, configurable: true });
        else Object.defineProperty(value, key, { value: 1, enumerable: true, configurable: true, writable: true });
      }
      const json = JSON.parse(JSON.stringify(Object.fromEntries(Object.keys(value).map((key) => [key, 1])))) as Record<
        string,
        unknown
      >;
      for (const candidate of [value, json]) {
        expect([hasOnlyEnvelopeKeys(candidate), candidate]).toEqual([reference(candidate), candidate]);
        if (reference(candidate)) envelopes++;
      }
    }
    expect(envelopes).toBeGreaterThan(1000);
  }, 60_000);
});
