/**
 * Regions between an opening and a closing marker (`<tool_call>` ... `</tool_call>`), in order. A region whose
 * closing marker never comes runs to the end of the text and is marked open (cut off, or a closing tag the model
 * left out at the very end).
 */

export interface TaggedRegion {
  /** where the opening marker starts */
  readonly start: number;
  /** just past the closing marker (or the end of the text when it never closes) */
  readonly end: number;
  readonly bodyStart: number;
  readonly bodyEnd: number;
  readonly closed: boolean;
}

export function taggedRegions(text: string, open: string, close: string): TaggedRegion[] {
  const regions: TaggedRegion[] = [];
  let position = 0;
  for (;;) {
    const start = text.indexOf(open, position);
    if (start < 0) return regions;
    const bodyStart = start + open.length;
    const closeAt = text.indexOf(close, bodyStart);
    if (closeAt < 0) {
      regions.push({ start, end: text.length, bodyStart, bodyEnd: text.length, closed: false });
      return regions;
    }
    regions.push({ start, end: closeAt + close.length, bodyStart, bodyEnd: closeAt, closed: true });
    position = closeAt + close.length;
  }
}

/** Whether the character at `index` is a blank (`\s`): the ASCII ones without a regular expression. */
export function isBlankAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code === 32 || (code >= 9 && code <= 13) || (code >= 128 && /\s/.test(text[index] as string));
}

/** The offset of the first non-blank character at or after `position` (the text's length when there is none). */
export function skipBlank(text: string, position: number): number {
  let index = position;
  while (index < text.length && isBlankAt(text, index)) index += 1;
  return index;
}

/**
 * `indexOf(needle, from)` for a scan whose `from` only grows: the last position found is kept, so a needle that is
 * missing (or far) is searched for once, not once per position the scan asks from.
 */
export function indexFinder(text: string, needle: string): (from: number) => number {
  let found = -2;
  let searchedFrom = 0;
  return (from) => {
    if (found === -2 || from < searchedFrom || (found >= 0 && found < from)) {
      found = text.indexOf(needle, from);
      searchedFrom = from;
    }
    return found;
  };
}
