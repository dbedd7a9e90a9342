/** Qwen3-Coder chat template: `<function=N>` with one `<parameter=K>` per argument, the value on its own lines. */
import type { RenderCall, RenderOptions } from './index';
import { lead, rawText } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  return (
    lead(options.prose) +
    calls
      .map(
        (call) =>
          `<tool_call>\n<function=${call.name}>\n${Object.entries(call.arguments)
            .map(([key, value]) => `<parameter=${key}>\n${rawText(value)}\n</parameter>\n`)
            .join('')}</function>\n</tool_call>`,
      )
      .join('\n')
  );
}
