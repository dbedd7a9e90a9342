/**
 * The result budget: how many characters of text and JSON one tool result may put before the model, and the cut that
 * keeps a larger one well-formed (a JSON value stays valid JSON: long arrays keep their first items, long strings
 * their start, wide objects their first keys, each cut place marked with what it left out; text is cut at a line or
 * word boundary). Images and files are not counted: each provider's own size limits bound them.
 */

/** The default budget: 80,000 characters, about 20,000 tokens (under the 25,000-token cap some MCP clients enforce). */
export const DEFAULT_RESULT_BUDGET_CHARS = 80_000;

/** The estimate of characters per token used in the notes and the docs (English text and JSON average 3-4). */
export const CHARS_PER_TOKEN_ESTIMATE = 4;

/** Strings are never cut below this many characters (a cut place must still say something). */
const MIN_STRING_CHARS = 16;
/** Deeper values are replaced by a marker when the budget forces it; never deeper than this in any view. */
const MAX_VIEW_DEPTH = 64;
/** About what a cut marker (`…[1,234 more characters]`) costs: a string at most this much over its cap stays whole. */
const MARKER_ALLOWANCE = 32;
// eslint-disable-next-line no-control-regex -- the characters JSON escapes
const NEEDS_ESCAPE = /["\\\u0000-\u001f\u2028\u2029]/;

/** What a cut left out, counted while cutting. */
export class CutCounts {
  arraysShortened = 0;
  itemsLeftOut = 0;
  stringsShortened = 0;
  charsLeftOut = 0;
  keysLeftOut = 0;
  /** The longest string, array and widest object seen (before cutting): the next round's caps start from them. */
  longestString = 0;
  longestArray = 0;
  mostKeys = 0;

  add(other: CutCounts): void {
    this.arraysShortened += other.arraysShortened;
    this.itemsLeftOut += other.itemsLeftOut;
    this.stringsShortened += other.stringsShortened;
    this.charsLeftOut += other.charsLeftOut;
    this.keysLeftOut += other.keysLeftOut;
  }

  get anything(): boolean {
    return this.arraysShortened + this.stringsShortened + this.keysLeftOut > 0;
  }
}

/**
 * The length of `value`'s JSON text, counted by a walk that stops as soon as it passes `limit` (then it returns a
 * number above `limit`): a small result costs a short walk, a 5 MB one stops after `limit` characters. Follows
 * `JSON.stringify` (a `toJSON` is called; functions, symbols and `undefined` are left out); a cycle counts as too long.
 */
export function jsonLengthUpTo(value: unknown, limit: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    if (total > limit) return total;
    let item = stack.pop();
    if (item !== null && typeof item === 'object' && typeof (item as { toJSON?: unknown }).toJSON === 'function') {
      try {
        item = (item as { toJSON: () => unknown }).toJSON();
      } catch {
        return Number.POSITIVE_INFINITY;
      }
    }
    switch (typeof item) {
      case 'string':
        total += NEEDS_ESCAPE.test(item) ? JSON.stringify(item).length : item.length + 2;
        break;
      case 'number':
        total += Number.isFinite(item) ? String(item).length : 4;
        break;
      case 'bigint':
        total += String(item).length + 2;
        break;
      case 'boolean':
        total += item ? 4 : 5;
        break;
      case 'object':
        if (item === null) {
          total += 4;
        } else if (Array.isArray(item)) {
          total += 2 + Math.max(0, item.length - 1);
          for (let index = item.length - 1; index >= 0; index--) stack.push(item[index] ?? null);
        } else {
          const keys = Object.keys(item);
          total += 2 + Math.max(0, keys.length - 1);
          for (const key of keys) {
            total += key.length + 3;
            stack.push((item as Record<string, unknown>)[key]);
          }
        }
        break;
      default:
        // undefined, function, symbol: left out of objects (counted as `null` in arrays above)
        break;
    }
  }
  return total;
}

interface Caps {
  readonly string: number;
  readonly items: number;
  readonly keys: number;
  readonly depth: number;
}

/** A copy of `value` as plain JSON data with every string, array and object cut to `caps`, counting what was cut. */
function shrink(value: unknown, caps: Caps, counts: CutCounts, depth: number, ancestors: Set<object>): unknown {
  let item = value;
  if (item !== null && typeof item === 'object' && typeof (item as { toJSON?: unknown }).toJSON === 'function') {
    try {
      item = (item as { toJSON: () => unknown }).toJSON();
    } catch {
      return '[a value that could not be read]';
    }
  }
  switch (typeof item) {
    case 'string': {
      if (item.length > counts.longestString) counts.longestString = item.length;
      // A cut saves less than its marker costs for a string just over the cap: kept whole.
      if (item.length <= caps.string + MARKER_ALLOWANCE) return item;
      const kept = cutAtCodePoint(item, caps.string);
      counts.stringsShortened++;
      counts.charsLeftOut += item.length - kept.length;
      return `${kept}…[${formatCount(item.length - kept.length)} more characters]`;
    }
    case 'number':
      return Number.isFinite(item) ? item : null;
    case 'bigint':
      return item.toString();
    case 'boolean':
      return item;
    case 'object':
      break;
    default:
      return undefined;
  }
  if (item === null) return null;
  if (ancestors.has(item)) return '[circular]';
  if (depth >= caps.depth)
    return Array.isArray(item) ? '[an array left out: nested too deep]' : '[an object left out: nested too deep]';
  ancestors.add(item);
  try {
    if (Array.isArray(item)) {
      if (item.length > counts.longestArray) counts.longestArray = item.length;
      const keep = Math.min(item.length, caps.items);
      const out: unknown[] = new Array<unknown>(keep);
      for (let index = 0; index < keep; index++) {
        const element = shrink(item[index], caps, counts, depth + 1, ancestors);
        out[index] = element === undefined ? null : element;
      }
      if (keep < item.length) {
        counts.arraysShortened++;
        counts.itemsLeftOut += item.length - keep;
        out.push(`…[${formatCount(item.length - keep)} more items]`);
      }
      return out;
    }
    const keys = Object.keys(item);
    if (keys.length > counts.mostKeys) counts.mostKeys = keys.length;
    const out: Record<string, unknown> = {};
    let kept = 0;
    for (const key of keys) {
      if (kept >= caps.keys) break;
      const element = shrink((item as Record<string, unknown>)[key], caps, counts, depth + 1, ancestors);
      if (element === undefined) continue;
      // A defined property, so `__proto__` as an own key stays data and never sets the prototype.
      Object.defineProperty(out, key, { value: element, enumerable: true, writable: true, configurable: true });
      kept++;
    }
    const left = keys.length - kept;
    if (kept >= caps.keys && left > 0) {
      counts.keysLeftOut += left;
      Object.defineProperty(out, '…', {
        value: `[${formatCount(left)} more keys]`,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  } finally {
    ancestors.delete(item);
  }
}

/** A JSON value cut to fit: the data, its JSON text and what was left out. */
export interface CutJson {
  readonly value: unknown;
  readonly text: string;
  readonly counts: CutCounts;
}

/**
 * `value` as JSON data whose text is at most `budget` characters, cut as little as the budget allows, in this order:
 * first arrays keep fewer items (whole records stay whole), then long strings keep less text, then both, then objects
 * keep fewer keys, then deep values are left out. Each lever is searched (binary search on its cap, the largest that
 * fits), so a cut view fills most of its budget. `undefined` when even the smallest cut does not fit.
 */
export function cutJson(value: unknown, budget: number): CutJson | undefined {
  const attempt = (caps: Caps): CutJson | undefined => {
    const counts = new CutCounts();
    const out = shrink(value, caps, counts, 0, new Set());
    const data = out === undefined ? null : out;
    const text = JSON.stringify(data) ?? 'null';
    return text.length <= budget ? { value: data, text, counts } : undefined;
  };
  const measured = new CutCounts();
  shrink(value, { string: budget, items: budget, keys: budget, depth: MAX_VIEW_DEPTH }, measured, 0, new Set());
  const longestArray = Math.max(1, Math.min(measured.longestArray, budget));
  const longestString = Math.max(MIN_STRING_CHARS, Math.min(measured.longestString, budget));
  const mostKeys = Math.max(1, Math.min(measured.mostKeys, budget));
  const whole = { string: budget, items: budget, keys: budget, depth: MAX_VIEW_DEPTH };
  return (
    attempt(whole) ??
    largestFitting(1, longestArray, (items) => attempt({ ...whole, items })) ??
    largestFitting(MIN_STRING_CHARS, longestString, (string) => attempt({ ...whole, string })) ??
    largestFitting(1, longestArray, (items) => attempt({ ...whole, string: MIN_STRING_CHARS, items })) ??
    largestFitting(1, mostKeys, (keys) => attempt({ ...whole, string: MIN_STRING_CHARS, items: 1, keys })) ??
    largestFitting(1, MAX_VIEW_DEPTH, (depth) => attempt({ string: MIN_STRING_CHARS, items: 1, keys: 1, depth }))
  );
}

/** The result for the largest cap in `[low, high]` that fits (a larger cap never gives a shorter text). */
function largestFitting<T>(low: number, high: number, attempt: (cap: number) => T | undefined): T | undefined {
  let best = attempt(low);
  if (best === undefined) return undefined;
  let fits = low;
  let over = high + 1;
  while (over - fits > 1) {
    const middle = Math.floor((fits + over) / 2);
    const result = attempt(middle);
    if (result === undefined) over = middle;
    else {
      best = result;
      fits = middle;
    }
  }
  return best;
}

/** A text cut to `budget` characters at a line break (else a space) in its last fifth, never inside a surrogate pair. */
export function cutText(text: string, budget: number): string {
  if (text.length <= budget) return text;
  if (budget <= 0) return '';
  const hard = cutAtCodePoint(text, budget);
  const floor = Math.floor(budget * 0.8);
  const line = hard.lastIndexOf('\n');
  if (line >= floor) return hard.slice(0, line);
  const space = hard.lastIndexOf(' ');
  if (space >= floor) return hard.slice(0, space);
  return hard;
}

function cutAtCodePoint(text: string, length: number): string {
  let end = Math.min(length, text.length);
  const last = text.charCodeAt(end - 1);
  if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end);
}

/** `1234567` as `1,234,567` (fixed locale: notes read the same on every machine). */
export function formatCount(count: number): string {
  return Math.round(count)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
