/**
 * ollama: results back.
 * The wire format is summarized in `./index.ts` (provider-formats.md §6).
 */
import type { ToolResult } from '@toolwright/core';
import { isGeneratedCallId } from '../shared/call-ids';
import type { ToolNameCodec } from '../shared/name-codec';
import { resultText } from '../shared/content';
import { type ToolSetContext } from '../shared/tool-set';

/** The tool `Message` (`tool_call_id` is accepted by servers since late 2025). */
export interface OllamaToolMessage {
  role: 'tool';
  tool_name: string;
  tool_call_id?: string;
  content: string;
}

export interface OllamaResultOptions {
  readonly toolSet?: Pick<ToolSetContext, 'codec'>;
  readonly codec?: ToolNameCodec;
}

/** A result as a tool message; an error is a JSON `{"error": ...}` content (no error flag). */
export function toToolResultMessage(result: ToolResult, options: OllamaResultOptions = {}): OllamaToolMessage {
  const codec = options.toolSet?.codec ?? options.codec;
  const message: OllamaToolMessage = {
    role: 'tool',
    tool_name: codec?.has(result.tool) ? codec.encode(result.tool) : result.tool,
    content: resultText(result, 'Ollama'),
  };
  if (!isGeneratedCallId(result.callId)) message.tool_call_id = result.callId;
  return message;
}
