/** Qwen2.5 / Hermes chat template: one `<tool_call>` block per call, JSON by `tojson`. */
import type { RenderCall, RenderOptions } from './index';
import { lead, toJson } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  return (
    lead(options.prose) +
    calls
      .map((call) => `<tool_call>\n${toJson({ name: call.name, arguments: call.arguments })}\n</tool_call>`)
      .join('\n')
  );
}
