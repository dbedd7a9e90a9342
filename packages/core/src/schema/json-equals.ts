/**
 * The one structural equality of JSON values in toolwright (enum and const matching, `uniqueItems`, duplicate keys,
 * two spellings of one key, a schema given twice). JSON's data model, as JSON Schema defines equality: numbers are
 * equal when mathematically equal, so `0` and `-0` are equal (both read as the JSON number zero; `Object.is` would
 * tell them apart), objects are equal when they have the same own keys with equal values, in any order, arrays
 * when their elements are equal in order. Iterative, so a deep value cannot overflow the stack.
 */
export function jsonEquals(left: unknown, right: unknown): boolean {
  const stack: Array<readonly [unknown, unknown]> = [[left, right]];
  while (stack.length > 0) {
    const [a, b] = stack.pop()!;
    if (a === b) continue;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    const leftKeys = Object.keys(a);
    if (leftKeys.length !== Object.keys(b).length) return false;
    for (const key of leftKeys) {
      if (!Object.prototype.hasOwnProperty.call(b, key)) return false;
      stack.push([(a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]]);
    }
  }
  return true;
}
