/**
 * Reasoning sections of a model's text, which are never read as calls and are not part of `content`:
 * `<think>...</think>` (Qwen3, DeepSeek-R1, GLM), the text before an orphan `</think>` (templates that open the
 * section in the prompt), `[THINK]...[/THINK]` (Magistral), `<|START_THINKING|>...<|END_THINKING|>` (Command A
 * reasoning), `<seed:think>...</seed:think>` (Seed-OSS) and harmony's analysis channel
 * (`<|channel|>analysis<|message|>...<|end|>`, gpt-oss). A section still open at the end of the text runs to the end.
 */

const SECTIONS: readonly { readonly open: string; readonly close: string }[] = [
  { open: '<think>', close: '</think>' },
  { open: '[THINK]', close: '[/THINK]' },
  { open: '<|START_THINKING|>', close: '<|END_THINKING|>' },
  { open: '<seed:think>', close: '</seed:think>' },
  { open: '<|channel|>analysis<|message|>', close: '<|end|>' },
];
const ORPHAN_CLOSE = '</think>';

export interface Range {
  readonly start: number;
  readonly end: number;
}

/** The reasoning ranges of a text, in order, not overlapping. */
export function reasoningRanges(text: string): Range[] {
  const ranges: Range[] = [];
  // Text before an orphan `</think>` (one with no `<think>` before it) is reasoning.
  const firstClose = text.indexOf(ORPHAN_CLOSE);
  let position = 0;
  if (firstClose >= 0 && !text.slice(0, firstClose).includes('<think>')) {
    ranges.push({ start: 0, end: firstClose + ORPHAN_CLOSE.length });
    position = firstClose + ORPHAN_CLOSE.length;
  }
  for (;;) {
    let next: { start: number; open: string; close: string } | undefined;
    for (const section of SECTIONS) {
      const start = text.indexOf(section.open, position);
      if (start >= 0 && (next === undefined || start < next.start)) next = { start, ...section };
    }
    if (!next) return ranges;
    const close = text.indexOf(next.close, next.start + next.open.length);
    const end = close < 0 ? text.length : close + next.close.length;
    ranges.push({ start: harmonyStart(text, next.start), end });
    position = end;
  }
}

/** Harmony's `<|start|>assistant` before a channel belongs to the section it opens. */
function harmonyStart(text: string, start: number): number {
  const prefix = '<|start|>assistant';
  return text.startsWith(prefix, start - prefix.length) ? start - prefix.length : start;
}

/** The text with the ranges replaced by spaces (same length, so offsets into it are offsets into the text). */
export function blankRanges(text: string, ranges: readonly Range[]): string {
  let result = '';
  let position = 0;
  for (const range of ranges) {
    result += text.slice(position, range.start) + ' '.repeat(range.end - range.start);
    position = range.end;
  }
  return result + text.slice(position);
}
