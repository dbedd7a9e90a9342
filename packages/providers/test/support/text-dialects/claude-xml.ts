/** Claude-style XML: `<function_calls>` around `<invoke name="N">` and `<parameter name="K">V</parameter>`. */
import type { RenderCall, RenderOptions } from './index';
import { renderInvokeBlock } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  return renderInvokeBlock(calls, options.prose, { open: '<function_calls>', close: '</function_calls>' });
}
