/** Llama 3.1 JSON tool calling: `<|python_tag|>` then `{"name", "parameters"}` objects separated by `; `. */
import type { RenderCall, RenderOptions } from './index';
import { lead, toJson } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  return `${lead(options.prose)}<|python_tag|>${calls
    .map((call) => toJson({ name: call.name, parameters: call.arguments }))
    .join('; ')}<|eom_id|>`;
}
