/** Command R7B / Command A: the tool plan as thinking, then one action list of `{tool_call_id, tool_name, parameters}`. */
import type { RenderCall, RenderOptions } from './index';
import { toJson } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  const plan =
    options.prose === undefined || options.prose === '' ? '' : `<|START_THINKING|>${options.prose}<|END_THINKING|>`;
  const item = (call: RenderCall, index: number) =>
    `    ${toJson({ tool_call_id: String(index), tool_name: call.name, parameters: call.arguments })}`;
  return `${plan}<|START_ACTION|>[\n${calls.map(item).join(',\n')}\n]<|END_ACTION|>`;
}
