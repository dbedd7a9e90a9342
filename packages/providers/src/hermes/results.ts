/**
 * hermes: results back.
 * The wire format is summarized in `./index.ts` (provider-formats.md §10).
 */
import type { ToolResult } from '@toolwright/core';
import { resultText } from '../shared/content';
import { type HermesFlavor } from './tools';

/** A chat message for a template-applying server (vLLM, Ollama raw, llama.cpp). */
export interface HermesMessage {
  role: 'user' | 'tool';
  content: string;
}

export interface HermesResultOptions {
  /** `qwen` (default): `user` turns; `hermes`: `tool` turns. */
  readonly flavor?: HermesFlavor;
}

/** `<tool_response>\n…\n</tool_response>`: the value (JSON for non-strings) or `{"error": ...}`. */
export function toToolResponseText(result: ToolResult): string {
  return `<tool_response>\n${resultText(result, 'this model')}\n</tool_response>`;
}

export function toToolResultMessage(result: ToolResult, options: HermesResultOptions = {}): HermesMessage {
  return { role: (options.flavor ?? 'qwen') === 'hermes' ? 'tool' : 'user', content: toToolResponseText(result) };
}

/** Results in call order: Qwen merges them into one `user` turn; Hermes sends one `tool` turn each. */
export function toToolResultMessages(
  results: readonly ToolResult[],
  options: HermesResultOptions = {},
): HermesMessage[] {
  if (results.length === 0) return [];
  if ((options.flavor ?? 'qwen') === 'hermes') return results.map((result) => toToolResultMessage(result, options));
  return [{ role: 'user', content: results.map((result) => toToolResponseText(result)).join('\n') }];
}
