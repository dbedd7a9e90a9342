/** Functionary v3.1 / Llama 3.1 custom: `<function=NAME>{..}</function>` per call. */
import type { RenderCall, RenderOptions } from './index';
import { lead } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  return (
    lead(options.prose) +
    calls.map((call) => `<function=${call.name}>${JSON.stringify(call.arguments)}</function>`).join('\n')
  );
}
