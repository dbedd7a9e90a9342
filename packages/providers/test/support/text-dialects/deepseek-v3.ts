/** DeepSeek V3 chat template: `function<｜tool▁sep｜>NAME` and the arguments in a ```` ```json ```` fence per call. */
import type { RenderCall, RenderOptions } from './index';
import { lead, toJson } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  const call = (item: RenderCall) =>
    `<｜tool▁call▁begin｜>function<｜tool▁sep｜>${item.name}\n\`\`\`json\n${toJson(item.arguments)}\n\`\`\`<｜tool▁call▁end｜>`;
  return `${lead(options.prose)}<｜tool▁calls▁begin｜>${calls.map(call).join('\n')}<｜tool▁calls▁end｜>`;
}
