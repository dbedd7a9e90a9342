/** Granite 3.x: `<|tool_call|>` then a JSON list of calls. */
import type { RenderCall, RenderOptions } from './index';
import { lead, toJson } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  return `${lead(options.prose)}<|tool_call|>${toJson(calls.map((call) => ({ name: call.name, arguments: call.arguments })))}`;
}
