/** Seed-OSS chat template: `<seed:tool_call>` around `<function=N>` and `<parameter=K>V</parameter>`. */
import type { RenderCall, RenderOptions } from './index';
import { lead, rawText } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  return (
    lead(options.prose) +
    calls
      .map(
        (call) =>
          `<seed:tool_call>\n<function=${call.name}>\n${Object.entries(call.arguments)
            .map(([key, value]) => `<parameter=${key}>${rawText(value)}</parameter>\n`)
            .join('')}</function>\n</seed:tool_call>`,
      )
      .join('\n')
  );
}
