/**
 * `parseTextToolCalls`: the tool calls a model wrote into its text, in any registered dialect (docs/text-tool-calls.md).
 * Reasoning sections are blanked first; each dialect, in detection order, claims the regions of the text that hold
 * its calls (a region another dialect already claimed is left to it); each call's name is matched against the tools,
 * XML-style raw values are typed by the tool's schema; `content` is the text without reasoning and calls.
 */
import { DefinitionError } from '@toolwright/core';
import type { DialectBlock, DialectScope, TextDialect } from './dialect';
import { DIALECTS } from './dialects';
import { typeRawArguments } from './raw-values';
import { blankRanges, reasoningRanges, type Range } from './reasoning';
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

/** Every dialect's blocks in a (reasoning-free) text, earlier dialects first, none overlapping; sorted by start. */
function findBlocks(visible: string, dialects: readonly TextDialect[], scope: DialectScope): FoundBlock[] {
  const claimed: FoundBlock[] = [];
  for (const dialect of dialects) {
    for (const block of dialect.find(visible, scope)) {
      if (claimed.some((other) => block.start < other.end && other.start < block.end)) continue;
      claimed.push({ ...block, dialect: dialect.name });
    }
  }
  return claimed.sort((a, b) => a.start - b.start);
}

function contentOf(text: string, removed: readonly Range[]): string {
  const sorted = [...removed].sort((a, b) => a.start - b.start);
  let content = '';
  let position = 0;
  for (const range of sorted) {
    if (range.start > position) content += text.slice(position, range.start);
    position = Math.max(position, range.end);
  }
  return (content + text.slice(position)).replace(/\n{3,}/g, '\n\n').trim();
}

/** The calls of one text, against an index. */
export function readText(text: string, index: ToolIndex, dialects: readonly TextDialect[]): TextToolCalls {
  const reasoning = reasoningRanges(text);
  const visible = blankRanges(text, reasoning);
  const scope: DialectScope = { isToolName: (name) => index.lookup(name) !== undefined };
  const blocks = findBlocks(visible, dialects, scope);
  const calls: TextToolCall[] = [];
  const rejected: RejectedTextToolCall[] = [];
  for (const block of blocks) {
    const blockText = text.slice(block.start, block.end);
    for (const call of block.calls) {
      const tool = index.lookup(call.name);
      if (!tool) {
        rejected.push({
          dialect: block.dialect,
          name: call.name,
          reason: `no tool is named "${call.name}" (known tools: ${index.names.join(', ') || 'none'})`,
          text: blockText,
        });
        continue;
      }
      if (!call.rawValues) {
        calls.push({ name: tool.name, arguments: call.arguments, dialect: block.dialect });
        continue;
      }
      const typed = typeRawArguments(call.arguments, tool.schema());
      if (typed.ok) calls.push({ name: tool.name, arguments: typed.arguments, dialect: block.dialect });
      else rejected.push({ dialect: block.dialect, name: call.name, reason: typed.reason, text: blockText });
    }
    for (const refusal of block.rejected) rejected.push({ dialect: block.dialect, ...refusal });
  }
  return { calls, rejected, content: contentOf(text, [...reasoning, ...blocks]) };
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
 * The streaming form of {@link parseTextToolCalls}: the calls `push` and `end` return together are the calls
 * `parseTextToolCalls` reads from the whole text, for any split into deltas. A call is returned by `push` once a
 * later block follows it and the reasoning boundary is settled (a `</think>` has arrived, since text before an
 * orphan `</think>` is reasoning); the rest at `end()`.
 */
export function createTextToolCallParser(options: ParseTextToolCallsOptions): TextToolCallParser {
  const index = toolIndex(options.tools);
  const dialects = selectDialects(options.dialect);
  let text = '';
  let returned = 0;
  let ended = false;
  const settledReasoning = () => text.includes('</think>');
  return {
    push(delta) {
      if (ended)
        throw new DefinitionError('push() after end()', {
          target: 'createTextToolCallParser',
          fix: 'create a new parser per message',
        });
      text += delta;
      if (!settledReasoning()) return [];
      const reasoning = reasoningRanges(text);
      const visible = blankRanges(text, reasoning);
      const blocks = findBlocks(visible, dialects, { isToolName: (name) => index.lookup(name) !== undefined });
      // Blocks followed by another block are settled; read them alone for their calls.
      const settled = blocks.slice(0, -1);
      if (settled.length === 0) return [];
      const last = settled[settled.length - 1]!;
      const { calls } = readText(text.slice(0, last.end), index, dialects);
      const fresh = calls.slice(returned);
      returned = calls.length;
      return fresh;
    },
    end() {
      ended = true;
      const result = readText(text, index, dialects);
      return { ...result, calls: result.calls.slice(returned) };
    },
  };
}
