/** Apertus chat template: one list of `{NAME: arguments}` objects between the tools tokens. */
import type { RenderCall, RenderOptions } from './index';
import { lead, toJson } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  const items = calls.map((call) => Object.fromEntries([[call.name, call.arguments]]));
  return `${lead(options.prose)}<|tools_prefix|>${toJson(items)}<|tools_suffix|>`;
}
