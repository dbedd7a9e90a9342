/** Hunyuan (Hy3): `<tool_call>NAME<tool_sep>` and `<arg_key>`/`<arg_value>` pairs inside one `<tool_calls>` block. */
import type { RenderCall, RenderOptions } from './index';
import { lead, renderArgPairs } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  const call = (item: RenderCall) => `<tool_call>${item.name}<tool_sep>\n${renderArgPairs(item)}</tool_call>`;
  return `${lead(options.prose)}<tool_calls>\n${calls.map(call).join('\n')}\n</tool_calls>`;
}
