/**
 * A screen for the regular expressions that backtrack exponentially: a quantified group that itself contains a
 * repeating quantifier (star height above 1), e.g. `(a+)+`, `(a*)*b`, `(\w+\s?)*`, `((ab)*c)+`.
 * `?`, `{0,1}` and `{1}` do not repeat, so `(a?)+` is allowed. The scan is linear and never recurses.
 * It is a screen, not a proof: overlapping alternatives such as `(a|a)*` are not detected.
 */

interface GroupFrame {
  /** The group contains a repeating quantifier (directly or in a nested group). */
  repeats: boolean;
}

/** End index (exclusive) of the escape sequence starting at `index` (a backslash). */
function skipEscape(pattern: string, index: number): number {
  const letter = pattern[index + 1];
  const next = pattern[index + 2];
  if ((letter === 'p' || letter === 'P' || letter === 'u') && next === '{') {
    const close = pattern.indexOf('}', index + 3);
    return close === -1 ? pattern.length : close + 1;
  }
  if (letter === 'k' && next === '<') {
    const close = pattern.indexOf('>', index + 3);
    return close === -1 ? pattern.length : close + 1;
  }
  return Math.min(index + 2, pattern.length);
}

/** End index (exclusive) of the character class starting at `index` (a `[`). */
function skipClass(pattern: string, index: number): number {
  let position = index + 1;
  if (pattern[position] === '^') position += 1;
  while (position < pattern.length) {
    const character = pattern[position];
    if (character === '\\') position = skipEscape(pattern, position);
    else if (character === ']') return position + 1;
    else position += 1;
  }
  return pattern.length;
}

/** Index after a group's opening: `(`, `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!`, `(?<name>`, `(?i:`. */
function skipGroupOpening(pattern: string, index: number): number {
  if (pattern[index + 1] !== '?') return index + 1;
  const kind = pattern[index + 2];
  if (kind === ':' || kind === '=' || kind === '!') return index + 3;
  if (kind === '<') {
    if (pattern[index + 3] === '=' || pattern[index + 3] === '!') return index + 4;
    const close = pattern.indexOf('>', index + 3);
    return close === -1 ? pattern.length : close + 1;
  }
  const colon = pattern.indexOf(':', index + 2);
  return colon === -1 ? pattern.length : colon + 1;
}

/** The quantifier at `index`, if any: where it ends and whether it can repeat its atom. */
function readQuantifier(
  pattern: string,
  index: number,
): { readonly end: number; readonly repeats: boolean } | undefined {
  const character = pattern[index];
  let end: number;
  let repeats: boolean;
  if (character === '*' || character === '+' || character === '?') {
    end = index + 1;
    repeats = character !== '?';
  } else if (character === '{') {
    const match = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(index, index + 32));
    if (match === null) return undefined;
    end = index + match[0].length;
    const minimum = Number(match[1]);
    const maximum = match[2] === undefined ? minimum : match[3] === '' ? Number.POSITIVE_INFINITY : Number(match[3]);
    repeats = maximum > 1;
  } else {
    return undefined;
  }
  if (pattern[end] === '?') end += 1;
  return { end, repeats };
}

/** True when a quantified group contains a repeating quantifier (a ReDoS risk). */
export function hasNestedQuantifier(pattern: string): boolean {
  const stack: GroupFrame[] = [{ repeats: false }];
  /** The atom a following quantifier applies to; `groupRepeats` when it is a group that contains a repetition. */
  let atom: { readonly groupRepeats: boolean } | undefined;
  let index = 0;
  while (index < pattern.length) {
    const character = pattern[index]!;
    const quantifier = atom === undefined ? undefined : readQuantifier(pattern, index);
    if (quantifier !== undefined) {
      if (quantifier.repeats) {
        if (atom!.groupRepeats) return true;
        stack[stack.length - 1]!.repeats = true;
      }
      atom = undefined;
      index = quantifier.end;
    } else if (character === '\\') {
      atom = { groupRepeats: false };
      index = skipEscape(pattern, index);
    } else if (character === '[') {
      atom = { groupRepeats: false };
      index = skipClass(pattern, index);
    } else if (character === '(') {
      stack.push({ repeats: false });
      atom = undefined;
      index = skipGroupOpening(pattern, index);
    } else if (character === ')') {
      const frame = stack.length > 1 ? stack.pop()! : { repeats: false };
      if (frame.repeats) stack[stack.length - 1]!.repeats = true;
      atom = { groupRepeats: frame.repeats };
      index += 1;
    } else {
      atom = character === '|' || character === '^' || character === '$' ? undefined : { groupRepeats: false };
      index += 1;
    }
  }
  return false;
}
