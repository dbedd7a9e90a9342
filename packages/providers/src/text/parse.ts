/**
 * `parseTextToolCalls`: the tool calls a model wrote into its text, in any registered dialect (docs/text-tool-calls.md).
 * Reasoning sections are blanked first; each dialect, in detection order, claims the regions of the text that hold
 * its calls (a region another dialect already claimed is left to it); each call's name is matched against the tools,
 * XML-style raw values are typed by the tool's schema; `content` is the text without reasoning and calls.
 */
import { DefinitionError } from '@toolwright/core';
import type { DialectBlock, DialectCall, DialectRefusal, DialectScope, TextDialect } from './dialect';
import { DIALECTS } from './dialects';
import { readingText } from './read/extent';
import { typeRawArguments } from './raw-values';
import { blankRanges, closesThink, reasoningRanges, THINK_CLOSE_LENGTH, type Range } from './reasoning';
import { toolIndex, type TextToolSource, type ToolIndex } from './tools';

/** One call read from the text: the registry name, the arguments as written, and the dialect it was written in. */
export interface TextToolCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  readonly dialect: string;
}

/** A call that was found but not taken: cut off, naming no known tool, or readable only by guessing. */
export interface RejectedTextToolCall {
  readonly dialect: string;
  /** the name as the model wrote it, when it got that far */
  readonly name?: string;
  readonly reason: string;
  /** the text of the call (or of its block) */
  readonly text: string;
}

export interface TextToolCalls {
  readonly calls: readonly TextToolCall[];
  readonly rejected: readonly RejectedTextToolCall[];
  /** the text without the calls' regions and without reasoning sections, trimmed */
  readonly content: string;
}

export interface ParseTextToolCallsOptions {
  /** the tools the model was offered: JSON-Schema tools, a provider tool set, or a registry */
  readonly tools: TextToolSource;
  /** read only this dialect (or these, in this order); default every registered dialect, detected automatically */
  readonly dialect?: string | readonly string[];
}

/** The registered dialects' names, in detection order. */
export function getTextDialects(): readonly string[] {
  return DIALECTS.map((dialect) => dialect.name);
}

function selectDialects(dialect: string | readonly string[] | undefined): readonly TextDialect[] {
  if (dialect === undefined) return DIALECTS;
  const names = typeof dialect === 'string' ? [dialect] : dialect;
  return names.map((name) => {
    const found = DIALECTS.find((candidate) => candidate.name === name);
    if (!found)
      throw new DefinitionError(`unknown text tool-call dialect "${name}"`, {
        target: 'parseTextToolCalls',
        fix: `use one of ${getTextDialects().join(', ')}, or leave dialect out to detect it`,
      });
    return found;
  });
}

interface FoundBlock extends DialectBlock {
  readonly dialect: string;
}

/**
 * Every dialect's blocks in a (reasoning-free) text, earlier dialects first, none overlapping; sorted by start. Each
 * dialect's blocks are merged into the claimed ones in one walk (a block overlapping a claimed one is left out), so
 * many blocks cost linear time, not a comparison of every pair.
 */
function findBlocks(
  visible: string,
  dialects: readonly TextDialect[],
  isToolName: (name: string) => boolean,
): FoundBlock[] {
  let claimed: FoundBlock[] = [];
  // Only blanks (a text that is all reasoning, blanked): no dialect finds anything, none need look.
  if (!NOT_BLANK.test(visible)) return claimed;
  const scope: DialectScope = { isToolName, claimedEnd: (position) => claimedEnd(claimed, position) };
  for (const dialect of dialects) {
    // A literal, not a spread of the block: a spread builds a dictionary-mode object several times the size.
    const found = dialect.find(visible, scope).map((block): FoundBlock => ({
      start: block.start,
      end: block.end,
      calls: block.calls,
      rejected: block.rejected,
      dialect: dialect.name,
    }));
    if (found.length === 0) continue;
    if (!inOrder(found)) found.sort((a, b) => a.start - b.start);
    const merged: FoundBlock[] = [];
    let next = 0;
    let lastEnd = -1;
    for (let at = 0; at < found.length; at += 1) {
      const block = found[at] as FoundBlock;
      while (next < claimed.length && (claimed[next] as FoundBlock).end <= block.start)
        merged.push(claimed[next++] as FoundBlock);
      const overlapsClaimed = next < claimed.length && (claimed[next] as FoundBlock).start < block.end;
      // Two blocks of one dialect overlapping: the first keeps the region. An empty block overlaps nothing.
      if (overlapsClaimed || block.start < lastEnd) continue;
      merged.push(block);
      lastEnd = block.end;
    }
    while (next < claimed.length) merged.push(claimed[next++] as FoundBlock);
    claimed = merged;
  }
  return claimed;
}

const NOT_BLANK = /\S/;

/** Whether blocks are sorted by start already (a dialect finds its blocks in text order). */
function inOrder(blocks: readonly Range[]): boolean {
  for (let index = 1; index < blocks.length; index += 1)
    if ((blocks[index] as Range).start < (blocks[index - 1] as Range).start) return false;
  return true;
}

/** The end of the claimed block (sorted, not overlapping) holding `position`, or `position`: a binary search. */
function claimedEnd(claimed: readonly FoundBlock[], position: number): number {
  let low = 0;
  let high = claimed.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const block = claimed[middle] as FoundBlock;
    if (block.end <= position) low = middle + 1;
    else if (block.start > position) high = middle - 1;
    else return block.end;
  }
  return position;
}

/** A fence opener at the start of a line (after blanks): ```` ``` ```` or more backticks, then the info string. */
const FENCE_OPENER = /(?:^|\n)[ \t]*(`{3,})[^`\n]*(?=\n|$)/g;
/** A closing fence: a line of at least as many backticks, blanks around. */
const FENCE_CLOSER = /\n[ \t]*(`{3,})[ \t]*(?=\r?\n|$)/g;

/**
 * The blocks that are not quoted inside a fenced code block of the prose. One walk: the next block and the next
 * fence opener, whichever comes first; a block that starts at or before a fence's opener holds the fence (Gemma's
 * `tool_code`, a bare JSON call alone in its fence, DeepSeek V3's fenced arguments, Command-R's `Action: ```json`),
 * and a block that starts inside a fence is an example, not a call. A fence that never closes is not a fence (the
 * text may be cut off inside a fenced call, which is then rejected as cut off); where it opens is returned, since a
 * closing fence may still arrive in a stream.
 */
function outsideFences(
  visible: string,
  blocks: readonly FoundBlock[],
  from: number,
): { kept: FoundBlock[]; unclosedFence: number | undefined } {
  const kept: FoundBlock[] = [];
  let position = from;
  let index = 0;
  // The next opener is searched again only once the walk has passed the last one found: a search that found nothing
  // ran to the end, and searching again after every block would read the rest of the text each time.
  let opener: RegExpExecArray | null | undefined;
  const nextOpener = () => {
    if (opener === undefined || (opener !== null && opener.index < position)) {
      FENCE_OPENER.lastIndex = position;
      opener = FENCE_OPENER.exec(visible);
    }
    return opener;
  };
  while (index < blocks.length) {
    const block = blocks[index] as FoundBlock;
    if (block.start < position) {
      index += 1; // inside a fence
      continue;
    }
    const fence = nextOpener();
    const fenceStart = fence ? fence.index + (fence[0].startsWith('\n') ? 1 : 0) : -1;
    if (!fence || block.start <= fenceStart) {
      kept.push(block);
      position = block.end;
      index += 1;
      continue;
    }
    const ticks = (fence[1] as string).length;
    FENCE_CLOSER.lastIndex = fence.index + fence[0].length;
    let closer = FENCE_CLOSER.exec(visible);
    while (closer && (closer[1] as string).length < ticks) closer = FENCE_CLOSER.exec(visible);
    if (!closer) return { kept: [...kept, ...blocks.slice(index)], unclosedFence: fenceStart };
    position = closer.index + closer[0].length;
  }
  return { kept, unclosedFence: undefined };
}

/** Two sorted lists of ranges as one sorted list (one walk). */
function mergeRanges(first: readonly Range[], second: readonly Range[]): Range[] {
  const merged: Range[] = [];
  let left = 0;
  let right = 0;
  while (left < first.length && right < second.length)
    merged.push(
      (first[left] as Range).start <= (second[right] as Range).start
        ? (first[left++] as Range)
        : (second[right++] as Range),
    );
  while (left < first.length) merged.push(first[left++] as Range);
  while (right < second.length) merged.push(second[right++] as Range);
  return merged;
}

function contentOf(text: string, removed: readonly Range[]): string {
  const sorted = inOrder(removed) ? removed : [...removed].sort((a, b) => a.start - b.start);
  const parts: string[] = [];
  let position = 0;
  for (let at = 0; at < sorted.length; at += 1) {
    const range = sorted[at] as Range;
    if (range.start > position) parts.push(text.slice(position, range.start));
    position = Math.max(position, range.end);
  }
  parts.push(text.slice(position));
  return parts
    .join('')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

interface Found {
  readonly reasoning: readonly Range[];
  /** the blocks, sorted, in the text's offsets */
  readonly blocks: readonly FoundBlock[];
  /** where a fence that has not closed (yet) opens: blocks after it are not final while the text may go on */
  readonly unclosedFence: number | undefined;
}

/**
 * The reasoning and the blocks of `text` from `from` on. `from` > 0 is where a streaming parse resumes: just past a
 * block whose calls are final, outside reasoning and fences; the text before it is not read again (the character
 * just before it is kept, so a dialect that looks for a line start sees the same line), and the orphan `</think>`
 * rule, which is about the start of the text, is not applied again.
 */
function findAll(text: string, from: number, dialects: readonly TextDialect[], index: ToolIndex): Found {
  const base = Math.max(0, from - 1);
  const tail = base === 0 ? text : text.slice(base);
  const reasoning = reasoningRanges(tail, { orphanClose: from === 0 });
  const visible = blankRanges(tail, reasoning);
  const isToolName = (name: string) => index.lookup(name) !== undefined;
  const { kept, unclosedFence } = outsideFences(
    visible,
    readingText(visible, () => findBlocks(visible, dialects, isToolName)),
    from - base,
  );
  if (base === 0) return { reasoning, blocks: kept, unclosedFence };
  return {
    reasoning: reasoning.map((range) => ({ start: range.start + base, end: range.end + base })),
    blocks: kept.map((block) => ({
      start: block.start + base,
      end: block.end + base,
      calls: block.calls,
      rejected: block.rejected,
      dialect: block.dialect,
    })),
    unclosedFence: unclosedFence === undefined ? undefined : unclosedFence + base,
  };
}

/** The calls and refusals of blocks, names matched against the tools and raw values typed. */
function readBlocks(
  text: string,
  blocks: readonly FoundBlock[],
  index: ToolIndex,
): { calls: TextToolCall[]; rejected: RejectedTextToolCall[] } {
  const calls: TextToolCall[] = [];
  const rejected: RejectedTextToolCall[] = [];
  let known: string | undefined; // the tools' names for a refusal, joined once
  // Indexed loops: this runs once per reading over every block, mostly before the optimiser has compiled it, where a
  // `for...of` allocates an iterator result per step.
  for (let at = 0; at < blocks.length; at += 1) {
    const block = blocks[at] as FoundBlock;
    for (let which = 0; which < block.calls.length; which += 1) {
      const call = block.calls[which] as DialectCall;
      const tool = index.lookup(call.name);
      if (!tool) {
        rejected.push({
          dialect: block.dialect,
          name: call.name,
          reason: `no tool is named "${call.name}" (known tools: ${(known ??= index.names.join(', ') || 'none')})`,
          text: text.slice(block.start, block.end),
        });
        continue;
      }
      if (!call.rawValues) {
        calls.push({ name: tool.name, arguments: call.arguments, dialect: block.dialect });
        continue;
      }
      const typed = typeRawArguments(call.arguments, tool.schema());
      if (typed.ok) calls.push({ name: tool.name, arguments: typed.arguments, dialect: block.dialect });
      else
        rejected.push({
          dialect: block.dialect,
          name: call.name,
          reason: typed.reason,
          text: text.slice(block.start, block.end),
        });
    }
    for (let which = 0; which < block.rejected.length; which += 1) {
      const refusal = block.rejected[which] as DialectRefusal;
      rejected.push(
        refusal.name === undefined
          ? { dialect: block.dialect, reason: refusal.reason, text: refusal.text }
          : { dialect: block.dialect, name: refusal.name, reason: refusal.reason, text: refusal.text },
      );
    }
  }
  return { calls, rejected };
}

/** The calls of one text, against an index. */
export function readText(text: string, index: ToolIndex, dialects: readonly TextDialect[]): TextToolCalls {
  const { reasoning, blocks } = findAll(text, 0, dialects, index);
  const { calls, rejected } = readBlocks(text, blocks, index);
  return { calls, rejected, content: contentOf(text, mergeRanges(reasoning, blocks)) };
}

/**
 * The tool calls in a model's text (synchronous). Only complete, readable calls to known tools are in `calls`; a
 * call that is cut off, names no known tool, or cannot be read without guessing is in `rejected` with the reason.
 */
export function parseTextToolCalls(text: string, options: ParseTextToolCallsOptions): TextToolCalls {
  if (typeof text !== 'string')
    throw new DefinitionError(`parseTextToolCalls reads text, not ${text === null ? 'null' : typeof text}`, {
      target: 'parseTextToolCalls',
      fix: "pass the model's message text (content)",
    });
  return readText(text, toolIndex(options.tools), selectDialects(options.dialect));
}

/** A streaming reader: push text deltas as they arrive, `end()` when the message is complete. */
export interface TextToolCallParser {
  /** Adds a delta; returns the calls that became final with it (a call is final once a later block follows it). */
  push(delta: string): readonly TextToolCall[];
  /** Ends the text; returns the calls not returned by `push`, every rejected call, and the whole `content`. */
  end(): TextToolCalls;
}

/**
 * The unsettled part is read again once the text added since the last reading is at least {@link MIN_STEP}
 * characters, a {@link STEP_RATIO}th of that part's length then, and a {@link TEXT_STEP_RATIO}th of the text so far:
 * each reading costs at most `STEP_RATIO + 1` times the text added since the last one, a long stream of many calls
 * makes a few hundred readings, not one per {@link MIN_STEP} characters (each reading runs every dialect), and a call
 * is returned at most that much text after it became final.
 */
const MIN_STEP = 256;
const TEXT_STEP_RATIO = 32;
/** What `push` returns when no call became final (most deltas): one frozen empty list, not a new one each time. */
const NO_CALLS: readonly TextToolCall[] = Object.freeze([]);
const STEP_RATIO = 4;
/** How many deltas the streaming parser keeps as they came before joining them into one piece. */
const RUN_PIECES = 256;

/**
 * The blocks of a text still arriving whose calls are final: those followed by a later complete block (one that ends
 * before `bound`, the end of the text so far or an unclosed fence) of the same dialect. The same dialect, because a
 * dialect may read past its block up to its own next opener (Qwen3-Coder and GLM refuse a call followed by a stray
 * closing tag before the next `<tool_call>`); a complete block, because a block the text ends in may still change.
 * A prefix of the blocks: a block that is not final holds back every block after it.
 */
function finalBlocks(blocks: readonly FoundBlock[], bound: number): FoundBlock[] {
  let last = blocks.length - 1;
  while (last >= 0 && (blocks[last] as FoundBlock).end >= bound) last -= 1;
  if (last <= 0) return [];
  const followed = new Set<string>([(blocks[last] as FoundBlock).dialect]);
  const final: boolean[] = [];
  for (let index = last - 1; index >= 0; index -= 1) {
    const dialect = (blocks[index] as FoundBlock).dialect;
    final[index] = followed.has(dialect);
    followed.add(dialect);
  }
  const stop = final.findIndex((isFinal) => !isFinal);
  return blocks.slice(0, stop < 0 ? last : Math.min(stop, last));
}

/**
 * The streaming form of {@link parseTextToolCalls}: the calls `push` and `end` return together are the calls
 * `parseTextToolCalls` reads from the whole text, for any split into deltas, each once. A call is returned by `push`
 * once a later complete block follows it and the reasoning boundary is settled (a `</think>` has arrived, since text
 * before an orphan `</think>` is reasoning); the rest at `end()`.
 *
 * Incremental: the text before the end of the last final block is never read again, and the unsettled part is read
 * again only once enough text has been added since the last reading ({@link MIN_STEP}), so the work per delta is
 * proportional to its length, amortised. `end()` reads only the unsettled part: the settled part's refusals and
 * removed regions (reasoning, blocks) are kept as they settle, and `content` is built from them and the rest's.
 */
export function createTextToolCallParser(options: ParseTextToolCallsOptions): TextToolCallParser {
  const index = toolIndex(options.tools);
  const dialects = selectDialects(options.dialect);
  // The deltas are kept as pieces and joined only when the text is read: appending to one string and searching it
  // after every delta would flatten (copy) the whole text each time. A reading joins only the text from `offset` on
  // (just before the unsettled part); the settled text before it is set aside in `head` and joined once, at `end()`.
  // Every RUN_PIECES deltas are joined into one piece, so a long stream keeps a few large strings alive, not one small
  // string per delta (each small one kept would be copied by every young-generation collection until promoted).
  const head: string[] = [];
  /** where the text in `pieces` starts: the length of the text set aside in `head` */
  let offset = 0;
  const pieces: string[] = [];
  /** where the deltas not yet joined into one piece start in `pieces` */
  let runStart = 0;
  let length = 0;
  let tail = '';
  /** The text from `offset` on, as one string. */
  const tailNow = () => {
    if (offset + tail.length !== length) {
      tail = pieces.join('');
      pieces.length = 0;
      pieces.push(tail);
      runStart = 1;
    }
    return tail;
  };
  /** Sets the text before `to` aside (`tail` is current: a reading has just joined it). */
  const setAside = (to: number) => {
    if (to <= offset) return;
    head.push(tail.slice(0, to - offset));
    tail = tail.slice(to - offset);
    pieces.length = 0;
    pieces.push(tail);
    runStart = 1;
    offset = to;
  };
  const add = (delta: string) => {
    pieces.push(delta);
    length += delta.length;
    if (pieces.length - runStart >= RUN_PIECES) {
      const run = pieces.splice(runStart).join('');
      pieces.push(run);
      runStart = pieces.length;
    }
  };
  /**
   * The last characters before the delta being pushed (for a `</think>` split across deltas). Asked only while the
   * reasoning is unsettled, before any reading, so nothing is set aside yet.
   */
  const before = () => {
    let last = '';
    for (let at = pieces.length - 1; at >= 0 && last.length < THINK_CLOSE_LENGTH; at -= 1)
      last = (pieces[at] as string).slice(-THINK_CLOSE_LENGTH) + last;
    return last;
  };
  let ended = false;
  let reasoningSettled = false;
  /** where the unsettled part starts: just past the last block whose calls were returned */
  let settledEnd = 0;
  /** the settled part's reasoning sections and blocks (removed from `content`), and its refusals, in text order */
  const settledRemoved: Range[] = [];
  const settledRejected: RejectedTextToolCall[] = [];
  /** the text's length at the last reading, and the unsettled part's length then */
  let readAt = 0;
  let pendingThen = 0;
  return {
    push(delta) {
      if (ended)
        throw new DefinitionError('push() after end()', {
          target: 'createTextToolCallParser',
          fix: 'create a new parser per message',
        });
      if (delta.length === 0) return [];
      if (!reasoningSettled) {
        reasoningSettled = closesThink(delta, before);
        add(delta);
        if (!reasoningSettled) return NO_CALLS;
      } else {
        add(delta);
        if (length - readAt < Math.max(MIN_STEP, pendingThen / STEP_RATIO, readAt / TEXT_STEP_RATIO)) return NO_CALLS;
      }
      // The text from `offset` on, read from the unsettled part: offsets below are in it, `offset` added for the text's.
      const text = tailNow();
      readAt = length;
      const { reasoning, blocks, unclosedFence } = findAll(text, settledEnd - offset, dialects, index);
      const final = finalBlocks(blocks, unclosedFence ?? text.length);
      if (final.length === 0) {
        pendingThen = length - settledEnd;
        return NO_CALLS;
      }
      const finalEnd = (final[final.length - 1] as FoundBlock).end;
      settledEnd = offset + finalEnd;
      pendingThen = length - settledEnd;
      const { calls, rejected } = readBlocks(text, final, index);
      const removed = mergeRanges(
        reasoning.filter((range) => range.end <= finalEnd),
        final,
      );
      for (let at = 0; at < removed.length; at += 1) {
        const range = removed[at] as Range;
        settledRemoved.push({ start: range.start + offset, end: range.end + offset });
      }
      for (let at = 0; at < rejected.length; at += 1) settledRejected.push(rejected[at] as RejectedTextToolCall);
      // The next reading resumes at `settledEnd` and keeps the character before it (see `findAll`).
      setAside(settledEnd - 1);
      return calls;
    },
    end() {
      ended = true;
      const text = head.length === 0 ? tailNow() : head.join('') + tailNow();
      if (settledEnd === 0) return readText(text, index, dialects);
      // The settled part's calls, refusals and removed regions are known: only the rest is read.
      const { reasoning, blocks } = findAll(text, settledEnd, dialects, index);
      const { calls, rejected } = readBlocks(text, blocks, index);
      return {
        calls,
        rejected: settledRejected.concat(rejected),
        content: contentOf(text, settledRemoved.concat(mergeRanges(reasoning, blocks))),
      };
    },
  };
}
