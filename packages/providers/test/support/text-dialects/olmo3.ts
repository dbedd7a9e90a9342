/** OLMo 3 chat template: pythonic calls, one per line, inside `<function_calls>`. */
import type { RenderCall, RenderOptions } from './index';
import { lead, pythonCall } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  return `${lead(options.prose)}<function_calls>\n${calls.map(pythonCall).join('\n')}\n</function_calls>`;
}
