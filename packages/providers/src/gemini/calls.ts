/**
 * gemini: calls in, whole and streamed.
 * The wire format is summarized in `./index.ts` (provider-formats.md §4).
 */
import { CallBuilder, objectArguments, type ParsedToolCall, type ParseToolCallsOptions } from '../shared/calls';
import { arrayAt, asRecord, recordAt, stringAt, valueAt } from '../shared/read';
import {
  callStreamObserver,
  streamToolCalls,
  type CallStreamObserver,
  type ToolCallAccumulator,
} from '../shared/streaming';
import { streamToolCallEvents, type ToolCallEventOptions, type ToolCallStreamEvent } from '../shared/stream-events';
export type { ParsedToolCall, ParseToolCallsOptions } from '../shared/calls';
export type { ToolSet, ToolSetOptions } from '../shared/tool-set';
export type { ToolCallEventOptions, ToolCallStreamEvent } from '../shared/stream-events';
export { toGeminiSchema, fromGeminiSchema, GEMINI_SCHEMA_KEYWORDS, type GeminiSchema, type GeminiType } from './schema';

function partsOf(response: object | readonly object[]): readonly unknown[] {
  if (Array.isArray(response)) return response;
  const candidates = arrayAt(response, 'candidates');
  if (candidates.length > 0) return arrayAt(candidates[0], 'content', 'parts');
  return arrayAt(response, 'parts');
}

/**
 * The calls of a `GenerateContentResponse` (first candidate), a `Content`, or a `Part` array. Calls without an
 * `id` get generated ids (`toolwright_call_…`), matched by order; `toToolResultMessage` leaves those out again.
 */
export function parseToolCalls(
  response: object | readonly object[],
  options: ParseToolCallsOptions = {},
): ParsedToolCall[] {
  const builder = new CallBuilder(options);
  const calls: ParsedToolCall[] = [];
  for (const part of partsOf(response)) {
    const call = recordAt(part, 'functionCall');
    if (!call) continue;
    calls.push(
      builder.build(stringAt(call, 'id'), stringAt(call, 'name') ?? '', objectArguments(valueAt(call, 'args') ?? {})),
    );
  }
  return calls;
}

interface OpenPartialCall {
  id: string | undefined;
  name: string;
  args: Record<string, unknown>;
  /** json paths whose string value is still continuing */
  continuing: Set<string>;
  /** The observer's key of this call, and the top-level argument the partials are writing (complete when another starts). */
  key: string;
  writing: string | undefined;
}

/**
 * Accumulates `generateContentStream` chunks. Calls normally arrive whole in one chunk and are returned at once;
 * with Vertex's `streamFunctionCallArguments`, partial calls (`partialArgs`, `willContinue`) are assembled by
 * JSON path and returned when a part without `willContinue` closes them.
 */
export function createStreamAccumulator(options: ParseToolCallsOptions = {}): ToolCallAccumulator<object> {
  const builder = new CallBuilder(options);
  const observer = callStreamObserver(options);
  let open: OpenPartialCall | undefined;
  let opened = 0;
  const close = (): ParsedToolCall[] => {
    if (!open) return [];
    if (open.writing !== undefined) observer?.member?.(open.key, open.writing, open.args[open.writing]);
    const call = builder.build(open.id, open.name, open.args);
    observer?.completed(open.key, call);
    open = undefined;
    return [call];
  };
  return {
    get pending() {
      return open ? 1 : 0;
    },
    push(chunk) {
      const completed: ParsedToolCall[] = [];
      for (const part of partsOf(chunk)) {
        const call = recordAt(part, 'functionCall');
        if (!call) continue;
        const partialArgs = arrayAt(call, 'partialArgs');
        const willContinue = valueAt(call, 'willContinue') === true;
        const id = stringAt(call, 'id');
        const name = stringAt(call, 'name');
        if (!willContinue && partialArgs.length === 0 && !open) {
          completed.push(builder.build(id, name ?? '', objectArguments(valueAt(call, 'args') ?? {})));
          continue;
        }
        if (open && ((id && open.id && id !== open.id) || (name && open.name && name !== open.name)))
          completed.push(...close());
        open ??= {
          id,
          name: name ?? '',
          args: {},
          continuing: new Set(),
          key: `partial:${opened++}`,
          writing: undefined,
        };
        if (id) open.id = id;
        if (name) open.name = name;
        observer?.started(open.key, open.id, open.name);
        const args = asRecord(valueAt(call, 'args'));
        if (args) {
          Object.assign(open.args, args);
          for (const key of Object.keys(args)) observer?.member?.(open.key, key, args[key]);
        }
        for (const partial of partialArgs) applyPartialArgument(open, partial, observer);
        if (!willContinue) completed.push(...close());
      }
      return completed;
    },
    finish: () => close(),
  };
}

/** Sets one `PartialArg` (`{jsonPath, stringValue | numberValue | boolValue | nullValue, willContinue}`). */
function applyPartialArgument(call: OpenPartialCall, partial: unknown, observer?: CallStreamObserver): void {
  const path = stringAt(partial, 'jsonPath');
  if (!path) return;
  const segments = parseJsonPath(path);
  if (!segments || segments.length === 0) return;
  // A partial for another top-level argument: the one written so far is complete.
  const top = String(segments[0]);
  if (observer && call.writing !== top) {
    if (call.writing !== undefined) observer.member?.(call.key, call.writing, call.args[call.writing]);
    call.writing = top;
  }
  const stringValue = stringAt(partial, 'stringValue');
  let value: unknown;
  if (stringValue !== undefined)
    value = call.continuing.has(path) ? `${continuedText(readPath(call.args, segments))}${stringValue}` : stringValue;
  else if (typeof valueAt(partial, 'numberValue') === 'number') value = valueAt(partial, 'numberValue');
  else if (typeof valueAt(partial, 'boolValue') === 'boolean') value = valueAt(partial, 'boolValue');
  else if (valueAt(partial, 'nullValue') !== undefined) value = null;
  else return;
  writePath(call.args, segments, value);
  if (stringValue !== undefined && stringValue !== '') observer?.shown?.(call.key, displayPath(segments), stringValue);
  if (valueAt(partial, 'willContinue') === true) call.continuing.add(path);
  else call.continuing.delete(path);
}

/** A path in the executor's form (`foo.bar[0].baz`). */
function displayPath(segments: ReadonlyArray<string | number>): string {
  let path = '';
  for (const segment of segments)
    path = typeof segment === 'number' ? `${path}[${segment}]` : path === '' ? segment : `${path}.${segment}`;
  return path;
}

/** `$.foo.bar[0]['baz']` -> `['foo', 'bar', 0, 'baz']` (the RFC 9535 subset partial arguments use). */
export function parseJsonPath(path: string): Array<string | number> | undefined {
  if (!path.startsWith('$')) return undefined;
  const segments: Array<string | number> = [];
  const pattern = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/gy;
  pattern.lastIndex = 1;
  while (pattern.lastIndex < path.length) {
    const match = pattern.exec(path);
    if (!match) return undefined;
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] !== undefined) segments.push(Number(match[2]));
    else segments.push((match[3] ?? match[4] ?? '').replace(/\\(.)/g, '$1'));
  }
  return segments;
}

/**
 * The text a continuing string value extends: the string so far, or the text of the scalar a partial wrote there
 * before (partials write scalars only: string, number, bool, null); nothing yet is ''.
 */
function continuedText(previous: unknown): string {
  if (typeof previous === 'string') return previous;
  if (typeof previous === 'number' || typeof previous === 'boolean') return String(previous);
  if (previous === undefined || previous === null) return '';
  // Not reachable from PartialArgs (scalars only); kept as the text String() made of any other value before.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- unreachable fallback, behaviour kept as it was
  return String(previous);
}

function readPath(root: Record<string, unknown>, segments: ReadonlyArray<string | number>): unknown {
  let node: unknown = root;
  for (const segment of segments) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

function writePath(root: Record<string, unknown>, segments: ReadonlyArray<string | number>, value: unknown): void {
  let node: Record<string | number, unknown> = root;
  segments.forEach((segment, index) => {
    if (segment === '__proto__' || segment === 'constructor' || segment === 'prototype') return;
    if (index === segments.length - 1) {
      node[segment] = value;
      return;
    }
    const next = segments[index + 1];
    if (node[segment] === null || typeof node[segment] !== 'object') node[segment] = typeof next === 'number' ? [] : {};
    node = node[segment] as Record<string | number, unknown>;
  });
}

export function streamCalls(
  chunks: AsyncIterable<object>,
  options: ParseToolCallsOptions = {},
): AsyncGenerator<ParsedToolCall, void, undefined> {
  return streamToolCalls(chunks, createStreamAccumulator(options));
}

/**
 * Each call of an SDK stream as events: started (its tool resolved or refused), each argument checked by the tool's
 * plan as soon as it is complete, string text as it arrives (display only), complete with the executor's result
 * (docs/streaming.md).
 */
export function streamCallEvents(
  events: AsyncIterable<object>,
  options: ParseToolCallsOptions & ToolCallEventOptions,
): AsyncGenerator<ToolCallStreamEvent, void, undefined> {
  return streamToolCallEvents(events, createStreamAccumulator, options);
}
