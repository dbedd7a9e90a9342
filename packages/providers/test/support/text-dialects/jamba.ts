/** Jamba: `<tool_calls>[..]</tool_calls>`. */
import type { RenderCall, RenderOptions } from './index';
import { lead, toJson } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  return `${lead(options.prose)}<tool_calls>${toJson(calls.map((call) => ({ name: call.name, arguments: call.arguments })))}</tool_calls>`;
}
