/** GLM-4.5 chat template: `<tool_call>NAME` and `<arg_key>`/`<arg_value>` pairs, one block per call. */
import type { RenderCall, RenderOptions } from './index';
import { lead, renderArgPairs } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  return (
    lead(options.prose) + calls.map((call) => `<tool_call>${call.name}\n${renderArgPairs(call)}</tool_call>`).join('\n')
  );
}
