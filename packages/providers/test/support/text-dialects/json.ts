/** Bare JSON in content (the Ollama reports): `{"name": .., "arguments": ..}` per call; `renderParameters` is llama3.2's `"parameters"` spelling. */
import type { RenderCall, RenderOptions } from './index';
import { lead, toJson } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  return lead(options.prose) + calls.map((call) => toJson({ name: call.name, arguments: call.arguments })).join('\n');
}

export function renderParameters(calls: readonly RenderCall[], options: RenderOptions): string {
  return lead(options.prose) + calls.map((call) => toJson({ name: call.name, parameters: call.arguments })).join('\n');
}
