/** Llama 3.2 / 4 pythonic (and BFCL): `[f(a=1), g(b='x')]`. */
import type { RenderCall, RenderOptions } from './index';
import { lead, pythonCall } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  return `${lead(options.prose)}[${calls.map(pythonCall).join(', ')}]`;
}
