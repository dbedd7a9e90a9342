/** Step-3 chat template: `<steptml:invoke>` calls between the full-width tool tokens; values as raw text. */
import type { RenderCall, RenderOptions } from './index';
import { lead, rawText } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  const call = (item: RenderCall) =>
    `<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="${item.name}">\n${Object.entries(item.arguments)
      .map(([key, value]) => `<steptml:parameter name="${key}">${rawText(value)}</steptml:parameter>\n`)
      .join('')}</steptml:invoke><｜tool_call_end｜>`;
  return `${lead(options.prose)}<｜tool_calls_begin｜>\n${calls.map(call).join('\n')}\n<｜tool_calls_end｜>`;
}
