/** DeepSeek V3.1 chat template: `NAME<｜tool▁sep｜>{json}` per call. */
import type { RenderCall, RenderOptions } from './index';
import { lead, toJson } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  const call = (item: RenderCall) =>
    `<｜tool▁call▁begin｜>${item.name}<｜tool▁sep｜>${toJson(item.arguments)}<｜tool▁call▁end｜>`;
  return `${lead(options.prose)}<｜tool▁calls▁begin｜>${calls.map(call).join('')}<｜tool▁calls▁end｜>`;
}
