/** LongCat-Flash chat template: one `<longcat_tool_call>` block per call, JSON by `tojson`. */
import type { RenderCall, RenderOptions } from './index';
import { lead, toJson } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  const block = (call: RenderCall) =>
    `<longcat_tool_call>\n${toJson({ name: call.name, arguments: call.arguments })}\n</longcat_tool_call>`;
  return lead(options.prose) + calls.map(block).join('');
}
