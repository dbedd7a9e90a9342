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

  constructor(options: ParseToolCallsOptions = {}) {
    this.builder = new CallBuilder(options);
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
      return;
    }
    this.open.set(String(key), { id, name, text, initial, order: this.started });
    this.started += 1;
  }

  /** Appends an argument fragment; a fragment for a key never started opens it (ids/names may come later). */
  append(key: string | number, fragment: string): void {
    const call = this.open.get(String(key));
    if (call) call.text += fragment;
    else this.start(key, undefined, '', undefined, fragment);
  }

  /** Sets the id or name when they arrive after the start. */
  update(key: string | number, fields: { id?: string; name?: string }): void {
    const call = this.open.get(String(key));
    if (!call) return;
    if (fields.id) call.id = fields.id;
    if (fields.name) call.name = fields.name;
  }

  /** Closes one call; `finalText` replaces the accumulated text when the provider sends the whole arguments. */
  complete(key: string | number, finalText?: string): ParsedToolCall[] {
    const call = this.open.get(String(key));
    if (!call) return [];
    this.open.delete(String(key));
    if (finalText !== undefined) call.text = finalText;
    return [this.toCall(call)];
  }

  /** Closes every open call, in the order they started. */
  completeAll(): ParsedToolCall[] {
    const calls = [...this.open.values()].sort((left, right) => left.order - right.order);
    this.open.clear();
    return calls.map((call) => this.toCall(call));
  }

  private toCall(call: PartialCall): ParsedToolCall {
    const argumentsValue = call.text === '' && call.initial !== undefined ? call.initial : call.text;
    return this.builder.build(call.id, call.name, argumentsValue);
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
