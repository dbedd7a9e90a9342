/** Phi-4-mini: `functools[..]`. */
import type { RenderCall, RenderOptions } from './index';
import { lead, toJson } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  return `${lead(options.prose)}functools${toJson(calls.map((call) => ({ name: call.name, arguments: call.arguments })))}`;
}
