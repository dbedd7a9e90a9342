/**
 * Streaming: every provider streams a call as a start (id, name), argument fragments and an end, keyed by an
 * index or item id so parallel calls may interleave. An accumulator takes the provider's events one by one and
 * returns each call once it is complete.
 */
import type { ToolCall } from '@toolwright/core';
import { CallBuilder, type ParsedToolCall, type ParseToolCallsOptions } from './calls';

export interface ToolCallAccumulator<TEvent> {
  /** Feeds one stream event; returns the calls this event completed (usually none or one). */
  push(event: TEvent): ParsedToolCall[];
  /** The end of the stream: returns the calls still open (a stream that ended without their end events). */
  finish(): ParsedToolCall[];
  /** How many calls are started and not yet returned. */
  readonly pending: number;
}

/**
 * What the event stream (`./stream-events.ts`) hears from an accumulator while a call streams in. Keys are the
 * accumulator's own (the provider's index or item id, as text). Set through the accumulator's options under
 * {@link CALL_STREAM_OBSERVER}; an accumulator without one behaves as before.
 */
export interface CallStreamObserver {
  /** A call opened, or its id or name arrived later (called again with what is known). */
  started(key: string, id: string | undefined, name: string): void;
  /** More of the call's arguments text. */
  text(key: string, fragment: string): void;
  /** The provider sent the whole arguments text and it is not the text streamed so far: the early view ends. */
  replaced(key: string): void;
  /** A top-level argument given as a value, not text (Vertex's streamed function-call arguments). */
  member?(key: string, name: string, value: unknown): void;
  /** More of a string argument at `path`, for display (Vertex's continuing string values). */
  shown?(key: string, path: string, text: string): void;
  /** The call is complete: the call the accumulator returns for it. */
  completed(key: string, call: ParsedToolCall): void;
}

/** The options key an accumulator reads its observer from (kept off the documented options). */
export const CALL_STREAM_OBSERVER: unique symbol = Symbol('toolwright.callStreamObserver');

/** The observer set in an accumulator's options, if any. */
export function callStreamObserver(options: object): CallStreamObserver | undefined {
  return (options as { [CALL_STREAM_OBSERVER]?: CallStreamObserver })[CALL_STREAM_OBSERVER];
}

interface PartialCall {
  id: string | undefined;
  name: string;
  text: string;
  /** Arguments the start event already carried as an object (used when no fragment follows). */
  initial: ToolCall['arguments'];
  order: number;
}

/** The per-key table every accumulator keeps. Keys are the provider's index or item id. */
export class PartialCallTable {
  private readonly open = new Map<string, PartialCall>();
  private readonly builder: CallBuilder;
  private started = 0;
  private readonly observer: CallStreamObserver | undefined;

  constructor(options: ParseToolCallsOptions = {}) {
    this.builder = new CallBuilder(options);
    this.observer = callStreamObserver(options);
  }

  get pending(): number {
    return this.open.size;
  }

  has(key: string | number): boolean {
    return this.open.has(String(key));
  }

  start(key: string | number, id: string | undefined, name: string, initial?: ToolCall['arguments'], text = ''): void {
    const existing = this.open.get(String(key));
    if (existing) {
      // Some providers repeat the id/name on later fragments; keep what is known.
      if (id) existing.id = id;
      if (name) existing.name = name;
      if (text) existing.text += text;
      if (this.observer) {
        if (id || name) this.observer.started(String(key), existing.id, existing.name);
        if (text) this.observer.text(String(key), text);
      }
      return;
    }
    this.open.set(String(key), { id, name, text, initial, order: this.started });
    this.started += 1;
    if (this.observer) {
      this.observer.started(String(key), id, name);
      if (text) this.observer.text(String(key), text);
    }
  }

  /** Appends an argument fragment; a fragment for a key never started opens it (ids/names may come later). */
  append(key: string | number, fragment: string): void {
    const call = this.open.get(String(key));
    if (call) {
      call.text += fragment;
      this.observer?.text(String(key), fragment);
    } else this.start(key, undefined, '', undefined, fragment);
  }

  /** Sets the id or name when they arrive after the start. */
  update(key: string | number, fields: { id?: string; name?: string }): void {
    const call = this.open.get(String(key));
    if (!call) return;
    if (fields.id) call.id = fields.id;
    if (fields.name) call.name = fields.name;
    if ((fields.id || fields.name) && this.observer) this.observer.started(String(key), call.id, call.name);
  }

  /** Closes one call; `finalText` replaces the accumulated text when the provider sends the whole arguments. */
  complete(key: string | number, finalText?: string): ParsedToolCall[] {
    const call = this.open.get(String(key));
    if (!call) return [];
    this.open.delete(String(key));
    if (finalText !== undefined && finalText !== call.text) {
      if (this.observer) {
        if (finalText.startsWith(call.text)) this.observer.text(String(key), finalText.slice(call.text.length));
        else this.observer.replaced(String(key));
      }
      call.text = finalText;
    }
    return [this.toCall(String(key), call)];
  }

  /** Closes every open call, in the order they started. */
  completeAll(): ParsedToolCall[] {
    const calls = [...this.open.entries()].sort((left, right) => left[1].order - right[1].order);
    this.open.clear();
    return calls.map(([key, call]) => this.toCall(key, call));
  }

  private toCall(key: string, call: PartialCall): ParsedToolCall {
    const argumentsValue = call.text === '' && call.initial !== undefined ? call.initial : call.text;
    const built = this.builder.build(call.id, call.name, argumentsValue);
    this.observer?.completed(key, built);
    return built;
  }
}

/** Runs an accumulator over an async stream of events, yielding each call as soon as it is complete. */
export async function* streamToolCalls<TEvent>(
  events: AsyncIterable<TEvent>,
  accumulator: ToolCallAccumulator<TEvent>,
): AsyncGenerator<ParsedToolCall, void, undefined> {
  for await (const event of events) {
    for (const call of accumulator.push(event)) yield call;
  }
  for (const call of accumulator.finish()) yield call;
}
