/**
 * Markdown code fences around a call: a block that is the only thing inside a fence (```` ```json ````, ```` ``` ````)
 * takes the fence with it, so `content` keeps no empty fence.
 */

const FENCE_BEFORE = /(?:^|\n)[ \t]*```[\w-]*[ \t]*\r?\n\s*$/;
// `\s*` alone: blanks, a newline and the next line's indentation are all `\s`, and adjacent quantifiers over the
// same characters would retry every split of a run of blanks.
const FENCE_AFTER = /^\s*```[ \t]*(?=\r?\n|$)/;

/** The region widened to its fence when the fence holds nothing else. */
export function widenToFence(text: string, start: number, end: number): { start: number; end: number } {
  const window = text.slice(Math.max(0, start - 200), start);
  if (!window.includes('```')) return { start, end }; // no fence just before: the common case, without a pattern
  const before = FENCE_BEFORE.exec(window);
  const after = FENCE_AFTER.exec(text.slice(end, end + 200));
  if (!before || !after) return { start, end };
  const fenceStart = start - (before[0].length - (before[0].startsWith('\n') ? 1 : 0));
  return { start: fenceStart, end: end + after[0].length };
}

/** The fenced blocks of a language (```` ```tool_code ````): where each starts and ends, and its body. */
export function fencedBlocks(
  text: string,
  language: string,
): { start: number; end: number; bodyStart: number; bodyEnd: number; closed: boolean }[] {
  const blocks: { start: number; end: number; bodyStart: number; bodyEnd: number; closed: boolean }[] = [];
  const opener = new RegExp('```' + language + '[ \\t]*\\r?\\n', 'g');
  for (let match = opener.exec(text); match; match = opener.exec(text)) {
    const bodyStart = match.index + match[0].length;
    const close = text.indexOf('```', bodyStart);
    if (close < 0) {
      blocks.push({ start: match.index, end: text.length, bodyStart, bodyEnd: text.length, closed: false });
      break;
    }
    blocks.push({ start: match.index, end: close + 3, bodyStart, bodyEnd: close, closed: true });
    opener.lastIndex = close + 3;
  }
  return blocks;
}
