/**
 * Reasoning sections of a model's text, which are never read as calls and are not part of `content`
 * (docs/text-tool-calls.md lists each syntax and the models that write it): `<think>...</think>` (DeepSeek R1/V3,
 * Qwen3, QwQ, GLM, MiniMax-M2, OLMo 3), `<thinking>...</thinking>` (Claude-style prompted reasoning), `◁think▷...
 * ◁/think▷` (Kimi thinking models), `[THINK]...[/THINK]` (Magistral), `<|START_THINKING|>...<|END_THINKING|>`
 * (Command A), `<seed:think>...</seed:think>` (Seed-OSS) and harmony's analysis channel
 * (`<|channel|>analysis<|message|>...<|end|>`, gpt-oss). Tag names are matched in any case (`<THINK>`); a section
 * opened inside a section of the same kind nests (it ends at its matching close, not at the first one); a section
 * still open at the end of the text runs to the end; the text before an orphan `</think>` (the first one, with no
 * `<think>` before it: templates that open the section in the prompt) is reasoning.
 *
 * One left-to-right pass over the tags (one alternation of literals), so the cost is linear in the text.
 */

interface SectionKind {
  readonly open: string;
  readonly close: string;
}

const KINDS: readonly SectionKind[] = [
  { open: '<think>', close: '</think>' },
  { open: '<thinking>', close: '</thinking>' },
  { open: '◁think▷', close: '◁/think▷' },
  { open: '[think]', close: '[/think]' },
  { open: '<|start_thinking|>', close: '<|end_thinking|>' },
  { open: '<seed:think>', close: '</seed:think>' },
  { open: '<|channel|>analysis<|message|>', close: '<|end|>' },
];
const THINK = KINDS[0] as SectionKind;

const escape = (literal: string) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Every tag, longest first at each position (`<thinking>` before `<think>` cannot clash: they differ at `i`/`>`). */
const TAG = new RegExp(KINDS.flatMap((kind) => [kind.open, kind.close].map(escape)).join('|'), 'gi');
interface Tag {
  readonly kind: SectionKind;
  readonly opens: boolean;
  readonly text: string;
}

/**
 * The tags by length, then by their first two characters (case-folded): no two tags share all three, so a match of
 * {@link TAG} is named without hashing its text (a long run of tags would hash one fresh string per tag).
 */
const BY_LENGTH: (Tag[] | undefined)[] = [];
for (const kind of KINDS)
  for (const tag of [
    { kind, opens: true, text: kind.open },
    { kind, opens: false, text: kind.close },
  ])
    (BY_LENGTH[tag.text.length] ??= []).push(tag);

function foldCase(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : code;
}

/** The tag a match of {@link TAG} at `index` is (its length known). */
function tagAt(text: string, index: number, length: number): Tag | undefined {
  const candidates = BY_LENGTH[length];
  if (candidates === undefined) return undefined;
  const first = foldCase(text.charCodeAt(index));
  const second = foldCase(text.charCodeAt(index + 1));
  for (const tag of candidates) if (tag.text.charCodeAt(0) === first && tag.text.charCodeAt(1) === second) return tag;
  return undefined;
}

export interface Range {
  readonly start: number;
  readonly end: number;
}

export interface ReasoningOptions {
  /** read the text before a first `</think>` with no `<think>` before it as reasoning (default true) */
  readonly orphanClose?: boolean;
}

/** The reasoning ranges of a text, in order, not overlapping. */
export function reasoningRanges(text: string, options: ReasoningOptions = {}): Range[] {
  let ranges: Range[] = [];
  let open: { kind: SectionKind; start: number; depth: number } | undefined;
  let thinkSeen = false;
  TAG.lastIndex = 0;
  for (let match = TAG.exec(text); match; match = TAG.exec(text)) {
    const tag = tagAt(text, match.index, match[0].length);
    if (!tag) continue;
    const end = match.index + match[0].length;
    if (tag.kind === THINK && !thinkSeen) {
      thinkSeen = true;
      if (!tag.opens && open === undefined && options.orphanClose !== false) {
        ranges = [{ start: 0, end }];
        continue;
      }
    }
    if (open === undefined) {
      if (tag.opens) open = { kind: tag.kind, start: harmonyStart(text, match.index), depth: 1 };
      continue;
    }
    if (tag.kind !== open.kind) continue;
    open.depth += tag.opens ? 1 : -1;
    if (open.depth > 0) continue;
    ranges.push({ start: open.start, end });
    open = undefined;
  }
  if (open) ranges.push({ start: open.start, end: text.length });
  return ranges;
}

/** The length of `</think>`: a delta search starts this far back, for a tag split across deltas. */
export const THINK_CLOSE_LENGTH = THINK.close.length;

/**
 * Whether a `</think>` (any case) ends in `delta`, the text before it being `before` (its last characters: only a tag
 * split across the two needs them). A streaming reader's check of each delta: a search for `>` and a look at the
 * characters before each one, so a delta costs in proportion to its length and the text before it is not read again.
 */
export function closesThink(delta: string, before: () => string): boolean {
  const last = THINK.close.length - 1;
  for (let at = delta.indexOf('>'); at >= 0; at = delta.indexOf('>', at + 1)) {
    if (at >= 1 && (delta.charCodeAt(at - 1) | 32) !== 107) continue; // not `k>` or `K>`: most `>` of a text
    const tag = at >= last ? delta.slice(at - last, at + 1) : (before() + delta.slice(0, at + 1)).slice(-last - 1);
    if (tag.toLowerCase() === THINK.close) return true;
  }
  return false;
}

/** Harmony's `<|start|>assistant` before a channel belongs to the section it opens. */
function harmonyStart(text: string, start: number): number {
  const prefix = '<|start|>assistant';
  return text.startsWith(prefix, start - prefix.length) ? start - prefix.length : start;
}

/** The text with the ranges replaced by spaces (same length, so offsets into it are offsets into the text). */
export function blankRanges(text: string, ranges: readonly Range[]): string {
  const parts: string[] = [];
  let position = 0;
  for (const range of ranges) {
    parts.push(text.slice(position, range.start), ' '.repeat(range.end - range.start));
    position = range.end;
  }
  parts.push(text.slice(position));
  return parts.join('');
}
