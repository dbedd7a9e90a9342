/** Claude-style XML: `<function_calls>` around `<invoke name="N">` and `<parameter name="K">V</parameter>`. */
import type { RenderCall, RenderOptions } from './index';
import { lead, rawText } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  const invoke = (call: RenderCall) =>
    `<invoke name="${call.name}">\n${Object.entries(call.arguments)
      .map(([key, value]) => `<parameter name="${key}">${rawText(value)}</parameter>\n`)
      .join('')}</invoke>\n`;
  return `${lead(options.prose)}<function_calls>\n${calls.map(invoke).join('')}</function_calls>`;
}
