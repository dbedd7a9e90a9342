/** Mistral: tokenizer v11+ `[TOOL_CALLS]NAME[ARGS]{..}` per call; `renderList` is the v3 `[TOOL_CALLS][{..}]` form. */
import type { RenderCall, RenderOptions } from './index';
import { lead } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  return (
    lead(options.prose) +
    calls.map((call) => `[TOOL_CALLS]${call.name}[ARGS]${JSON.stringify(call.arguments)}`).join('')
  );
}

export function renderList(calls: readonly RenderCall[], options: RenderOptions): string {
  return `${lead(options.prose)}[TOOL_CALLS]${JSON.stringify(calls.map((call) => ({ name: call.name, arguments: call.arguments })))}`;
}
