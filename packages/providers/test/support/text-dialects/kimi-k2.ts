/** Kimi K2 chat template: one section, each call `functions.NAME:INDEX` and its JSON arguments. */
import type { RenderCall, RenderOptions } from './index';
import { lead, toJson } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  const call = (item: RenderCall, index: number) =>
    `<|tool_call_begin|>functions.${item.name}:${index}<|tool_call_argument_begin|>${toJson(item.arguments)}<|tool_call_end|>`;
  return `${lead(options.prose)}<|tool_calls_section_begin|>${calls.map(call).join('')}<|tool_calls_section_end|>`;
}
