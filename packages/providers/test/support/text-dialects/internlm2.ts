/** InternLM2 chat template: `<|action_start|><|plugin|>` and a `{"name", "parameters"}` object per call. */
import type { RenderCall, RenderOptions } from './index';
import { lead, toJson } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  const block = (call: RenderCall) =>
    `<|action_start|><|plugin|>\n${toJson({ name: call.name, parameters: call.arguments })}<|action_end|>`;
  return lead(options.prose) + calls.map(block).join('\n');
}
