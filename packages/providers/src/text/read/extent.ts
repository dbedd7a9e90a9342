/**
 * Where a bracketed value written in a model's text ends: `{...}`, `[...]` or `(...)` with JSON and Python strings
 * (`"..."`, `'...'`, triple-quoted) skipped, so a bracket or quote inside a string never counts. One left-to-right
 * pass, no recursion: linear in the text.
 */

const CLOSERS: Readonly<Record<string, string>> = { '{': '}', '[': ']', '(': ')' };

/** The end of the quoted string opening at `start` (exclusive), or -1 when the text ends inside it. */
export function stringEnd(text: string, start: number): number {
  const quote = text[start] as string;
  const triple = text.startsWith(quote.repeat(3), start);
  const closer = triple ? quote.repeat(3) : quote;
  for (let index = start + closer.length; index < text.length; index += 1) {
    const character = text[index];
    if (character === '\\') {
      index += 1;
      continue;
    }
    if (!triple && character === '\n' && quote === "'") return -1;
    if (text.startsWith(closer, index)) return index + closer.length;
  }
  return -1;
}

/**
 * The end (exclusive) of the bracketed value opening at `start`; -1 when the text ends before it closes (a cut-off
 * value) or a closer does not match its opener.
 */
export function bracketedEnd(text: string, start: number): number {
  const expected: string[] = [];
  for (let index = start; index < text.length; index += 1) {
    const character = text[index] as string;
    if (character === '"' || character === "'") {
      const end = stringEnd(text, index);
      if (end < 0) return -1;
      index = end - 1;
      continue;
    }
    const closer = CLOSERS[character];
    if (closer !== undefined) {
      expected.push(closer);
      continue;
    }
    if (character === '}' || character === ']' || character === ')') {
      if (expected.pop() !== character) return -1;
      if (expected.length === 0) return index + 1;
    }
  }
  return -1;
}
