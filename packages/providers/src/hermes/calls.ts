/**
 * hermes: calls in, whole and streamed (the model's text).
 * The wire format is summarized in `./index.ts` (provider-formats.md §10).
 */
import { CallBuilder, type ParsedToolCall, type ParseToolCallsOptions } from '../shared/calls';
import { isPlainObject, propertiesOf, schemaTypes, type JsonSchema } from '../shared/json-schema';
import type { ToolCallAccumulator } from '../shared/streaming';
import type { ToolSet } from '../shared/tool-set';
import { readTextToolCalls } from '../text/fallback';
import { findJsonObjects } from './text';
import { firstControlToken } from '@toolwright/core/internal';

const OPEN_TAG = '<tool_call>';
const CLOSE_TAG = '</tool_call>';

/** Text with `<think>…</think>` sections blanked out (same length, so offsets stay valid); an open one runs to the end. */
function withoutThinking(text: string): string {
  return text.replace(/<think>[\s\S]*?(<\/think>|$)/g, (section) => ' '.repeat(section.length));
}

interface Block {
  readonly body: string;
  readonly end: number;
}

/** An unclosed block's body up to the first chat-template control token (core's one list), which ends the turn. */
function beforeControlToken(body: string): string {
  const at = firstControlToken(body);
  return at === -1 ? body : body.slice(0, at);
}

/** The `<tool_call>` blocks of a text from `start`; with `final`, an unclosed last block runs to the end of the text. */
function scanBlocks(text: string, start: number, final: boolean): { blocks: Block[]; consumed: number } {
  const visible = withoutThinking(text);
  const blocks: Block[] = [];
  let position = start;
  for (;;) {
    const open = visible.indexOf(OPEN_TAG, position);
    if (open < 0)
      return { blocks, consumed: final ? text.length : Math.max(position, lastSafeOffset(visible, position)) };
    const bodyStart = open + OPEN_TAG.length;
    const close = visible.indexOf(CLOSE_TAG, bodyStart);
    if (close < 0) {
      if (!final) return { blocks, consumed: open };
      blocks.push({ body: beforeControlToken(text.slice(bodyStart)), end: text.length });
      return { blocks, consumed: text.length };
    }
    blocks.push({ body: text.slice(bodyStart, close), end: close + CLOSE_TAG.length });
    position = close + CLOSE_TAG.length;
  }
}

/** While streaming, keep the tail that may be the start of a tag split across deltas (`<tool_ca`). */
function lastSafeOffset(visible: string, position: number): number {
  return Math.max(position, visible.length - (OPEN_TAG.length - 1));
}

export interface HermesParseOptions extends ParseToolCallsOptions {
  /**
   * When the text has no `<tool_call>` tags, also read calls written otherwise: with a tool set from `createToolSet`,
   * in every dialect `parseTextToolCalls` reads (docs/text-tool-calls.md), names of the tool set only; without one,
   * JSON objects `{"name": ..., "arguments": ...}` in prose or a fenced block. Default true.
   */
  readonly prose?: boolean;
}

/**
 * The calls in a model's text: `<tool_call>` blocks (JSON, JSON with `arguments` as a string, or the
 * `<function=…><parameter=…>` form, whose raw values are coerced with the tool set's schema), a missing closing tag
 * at the end, `<think>` sections ignored, end-of-turn markers tolerated; without tags, calls written as JSON in
 * prose. Ids are generated in order (the format has none).
 */
export function parseToolCalls(text: string, options: HermesParseOptions = {}): ParsedToolCall[] {
  const builder = new CallBuilder(options);
  const { blocks } = scanBlocks(text, 0, true);
  if (blocks.length > 0) return blocks.flatMap((block) => parseBlock(block.body, builder, options));
  if (options.prose === false) return [];
  return untaggedCalls(text, builder, options);
}

/** Calls in a text without `<tool_call>` tags: every text dialect with a full tool set, else JSON in prose. */
function untaggedCalls(text: string, builder: CallBuilder, options: HermesParseOptions): ParsedToolCall[] {
  const toolSet = options.toolSet;
  if (toolSet && 'definitions' in toolSet)
    return [...readTextToolCalls(text, toolSet as ToolSet<unknown>, options.generateId).calls];
  return proseCalls(withoutThinking(text), builder, options);
}

function parseBlock(body: string, builder: CallBuilder, options: HermesParseOptions): ParsedToolCall[] {
  const trimmed = body.trim();
  if (trimmed.startsWith('<function=')) return parseFunctionForm(trimmed, builder, options);
  const objects = findJsonObjects(trimmed);
  const calls = objects.flatMap((object) => callFromObject(object.value, builder));
  if (calls.length > 0) return calls;
  // Not valid JSON (Python literals, a trailing comma, truncation): hand the arguments text to the executor, which
  // repairs what is lossless and refuses the rest.
  const name = /["']name["']\s*:\s*["']([^"'\\]+)["']/.exec(trimmed)?.[1];
  if (name === undefined) return [];
  const argumentsStart = /["'](?:arguments|parameters)["']\s*:\s*/.exec(trimmed);
  const rawArguments = argumentsStart
    ? trimmed
        .slice(argumentsStart.index + argumentsStart[0].length)
        .replace(/\}\s*$/, '')
        .trim()
    : null;
  return [builder.build(undefined, name, rawArguments)];
}

function callFromObject(value: unknown, builder: CallBuilder): ParsedToolCall[] {
  if (!isPlainObject(value) || typeof value['name'] !== 'string') return [];
  const argumentsValue = value['arguments'] ?? value['parameters'];
  if (argumentsValue === undefined) return [builder.build(undefined, value['name'], {})];
  if (typeof argumentsValue === 'string' || isPlainObject(argumentsValue))
    return [builder.build(undefined, value['name'], argumentsValue)];
  return [builder.build(undefined, value['name'], JSON.stringify(argumentsValue))];
}

function parseFunctionForm(body: string, builder: CallBuilder, options: HermesParseOptions): ParsedToolCall[] {
  const calls: ParsedToolCall[] = [];
  const functionPattern = /<function=([^>\n]+)>([\s\S]*?)(?:<\/function>|$)/g;
  for (let match = functionPattern.exec(body); match; match = functionPattern.exec(body)) {
    const providerName = (match[1] ?? '').trim();
    const name = builder.decodeName(providerName);
    const schema = options.toolSet?.canonicalSchema(name);
    const properties = new Map(schema ? propertiesOf(schema) : []);
    const argumentsObject: Record<string, unknown> = {};
    const parameterPattern = /<parameter=([^>\n]+)>([\s\S]*?)(?:<\/parameter>|(?=<parameter=)|$)/g;
    const content = match[2] ?? '';
    for (let parameter = parameterPattern.exec(content); parameter; parameter = parameterPattern.exec(content)) {
      const key = (parameter[1] ?? '').trim();
      if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
      const raw = (parameter[2] ?? '').replace(/^\n/, '').replace(/\n$/, '');
      argumentsObject[key] = coerceParameter(raw, properties.get(key));
    }
    calls.push(builder.build(undefined, providerName, argumentsObject));
  }
  return calls;
}

/** A raw `<parameter>` value: text for string parameters, JSON for the others (when it parses), else the text. */
function coerceParameter(raw: string, schema: JsonSchema | undefined): unknown {
  if (!schema) return raw;
  const types = schemaTypes(schema).filter((type) => type !== 'null');
  if (types.length === 1 && types[0] === 'string') return raw;
  try {
    return JSON.parse(raw.trim()) as unknown;
  } catch {
    return raw;
  }
}

function proseCalls(text: string, builder: CallBuilder, options: HermesParseOptions): ParsedToolCall[] {
  const codec = options.toolSet?.codec ?? options.codec;
  const calls: ParsedToolCall[] = [];
  for (const { value } of findJsonObjects(text)) {
    if (!isPlainObject(value) || typeof value['name'] !== 'string') continue;
    if (!('arguments' in value) && !('parameters' in value)) continue;
    if (codec && codec.decode(value['name']) === value['name'] && !codec.has(value['name'])) continue;
    calls.push(...callFromObject(value, builder));
  }
  return calls;
}

/**
 * Accumulates streamed text deltas (strings): each `<tool_call>` block is returned when its closing tag arrives;
 * `finish()` reads an unclosed block at the end of the stream. Text inside `<think>` is never read as a call.
 */
export function createStreamAccumulator(options: HermesParseOptions = {}): ToolCallAccumulator<string> {
  const builder = new CallBuilder(options);
  let text = '';
  let consumed = 0;
  let sawBlock = false;
  return {
    get pending() {
      return withoutThinking(text).indexOf(OPEN_TAG, consumed) >= 0 ? 1 : 0;
    },
    push(delta) {
      text += delta;
      const scan = scanBlocks(text, consumed, false);
      consumed = scan.consumed;
      if (scan.blocks.length > 0) sawBlock = true;
      return scan.blocks.flatMap((block) => parseBlock(block.body, builder, options));
    },
    finish() {
      const scan = scanBlocks(text, consumed, true);
      consumed = text.length;
      if (scan.blocks.length > 0) return scan.blocks.flatMap((block) => parseBlock(block.body, builder, options));
      if (sawBlock || options.prose === false) return [];
      return untaggedCalls(text, builder, options);
    },
  };
}
