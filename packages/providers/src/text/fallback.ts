/**
 * The chat-model adapters' fallback (Ollama, OpenAI-compatible servers such as vLLM, llama.cpp, LM Studio, SGLang):
 * when a response carries no structured tool calls, the calls the model wrote into its text are read with
 * `parseTextToolCalls` against the request's tool set, so the tool loop gets them.
 */
import type { CallIdFactory } from '../shared/call-ids';
import { CallBuilder, type ParsedToolCall } from '../shared/calls';
import type { ToolSet } from '../shared/tool-set';
import { parseTextToolCalls } from './parse';

export interface TextFallback {
  readonly calls: readonly ParsedToolCall[];
  /**
   * The turn's text: the text without the calls and reasoning when every call found was read; the text as the model
   * wrote it when nothing was found, or when a call was rejected (cut off, unknown tool, two readings), so nothing
   * the model wrote is lost.
   */
  readonly text: string;
}

/** The calls written into `text`, as the adapter's parsed calls (ids generated in order, names through the codec). */
export function readTextToolCalls(text: string, toolSet: ToolSet<unknown>, generateId?: CallIdFactory): TextFallback {
  if (text.trim() === '') return { calls: [], text };
  const result = parseTextToolCalls(text, { tools: toolSet });
  if (result.calls.length === 0) return { calls: [], text };
  const builder = new CallBuilder({ toolSet, ...(generateId ? { generateId } : {}) });
  const calls = result.calls.map((call) => builder.build(undefined, toolSet.codec.encode(call.name), call.arguments));
  return { calls, text: result.rejected.length === 0 ? result.content : text };
}
