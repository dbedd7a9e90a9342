/** MiniMax-M2 chat template: `<minimax:tool_call>` around `<invoke name="N">` and `<parameter name="K">V</parameter>`. */
import type { RenderCall, RenderOptions } from './index';
import { renderInvokeBlock } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  return renderInvokeBlock(calls, options.prose, { open: '<minimax:tool_call>', close: '</minimax:tool_call>' });
}
