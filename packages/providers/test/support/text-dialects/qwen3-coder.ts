/** Qwen3-Coder chat template: `<function=N>` with one `<parameter=K>` per argument, the value on its own lines. */
import type { RenderCall, RenderOptions } from './index';
import { renderFunctionBlocks } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  return renderFunctionBlocks(calls, options.prose, { open: '<tool_call>', close: '</tool_call>', newlines: true });
}
