/**
 * Turning one provider call into the executor's `ToolCall`: decode the name with the tool set's codec, keep the
 * arguments as the provider sent them (text stays text: the executor parses and repairs it, recording each
 * repair), and for strict tool sets turn the nulls of optional properties back into "absent".
 */
import type { ToolCall, Transformation } from '@toolwright/core';
import { createCallIdFactory, type CallIdFactory } from './call-ids';
import { isPlainObject } from './json-schema';
import { stripStrictNulls } from './lowering/openai-strict';
import type { ToolNameCodec } from './name-codec';
import type { ToolSetContext } from './tool-set';

/** A parsed call: the executor's `ToolCall` plus what parsing observed. */
export interface ParsedToolCall extends ToolCall {
  /** The name exactly as the provider sent it (before decoding). */
  readonly providerName: string;
  /**
   * Changes made while parsing, in the executor's Transformation shape: `strict-null-to-absent` for each null an
   * OpenAI/Mistral strict tool set sent for an optional property. Empty when nothing changed.
   */
  readonly transformations: readonly Transformation[];
}

export interface ParseToolCallsOptions {
  /** The tool set the tools came from: decodes names, and for strict sets maps nulls back to absent. */
  readonly toolSet?: ToolSetContext;
  /** A codec alone (when only names were encoded). Ignored when `toolSet` is given. */
  readonly codec?: ToolNameCodec;
  /** Ids for calls that arrive without one (Gemini, Qwen/Hermes, older Ollama). */
  readonly generateId?: CallIdFactory;
}

/** Builds calls for one response; ids are generated per response so they are ordered within it. */
export class CallBuilder {
  private readonly generateId: CallIdFactory;
  private generated = 0;

  constructor(private readonly options: ParseToolCallsOptions = {}) {
    this.generateId = options.generateId ?? createCallIdFactory();
  }

  /** The registry name of a provider name. */
  decodeName(providerName: string): string {
    const codec = this.options.toolSet?.codec ?? this.options.codec;
    return codec ? codec.decode(providerName) : providerName;
  }

  /** A fresh id for a call that came without one. */
  nextId(): string {
    const id = this.generateId(this.generated);
    this.generated += 1;
    return id;
  }

  build(id: string | undefined | null, providerName: string, argumentsValue: ToolCall['arguments']): ParsedToolCall {
    const name = this.decodeName(providerName);
    const callId = typeof id === 'string' && id !== '' ? id : this.nextId();
    const toolSet = this.options.toolSet;
    if (!toolSet?.strict) return { id: callId, name, arguments: argumentsValue, providerName, transformations: [] };
    const canonical = toolSet.canonicalSchema(name);
    if (!canonical) return { id: callId, name, arguments: argumentsValue, providerName, transformations: [] };

    let parsed: unknown = argumentsValue;
    if (typeof argumentsValue === 'string') {
      try {
        parsed = JSON.parse(argumentsValue);
      } catch {
        // Malformed text is the executor's to repair or refuse; strict-null mapping only applies to clean JSON.
        return { id: callId, name, arguments: argumentsValue, providerName, transformations: [] };
      }
    }
    if (!isPlainObject(parsed))
      return { id: callId, name, arguments: argumentsValue, providerName, transformations: [] };
    const stripped = stripStrictNulls(parsed, canonical);
    if (stripped.transformations.length === 0) {
      return { id: callId, name, arguments: argumentsValue, providerName, transformations: [] };
    }
    return { id: callId, name, arguments: stripped.arguments, providerName, transformations: stripped.transformations };
  }
}

/** Arguments given as an object by the provider (Anthropic, Gemini, Bedrock, Ollama, MCP), copied defensively. */
export function objectArguments(value: unknown): ToolCall['arguments'] {
  if (value === undefined || value === null) return value;
  if (typeof value === 'string') return value;
  if (isPlainObject(value)) return value;
  // An array or scalar is not an arguments object; hand it to the executor as text so it reports it.
  return JSON.stringify(value);
}
