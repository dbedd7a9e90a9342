/** Seed-OSS chat template: `<seed:tool_call>` around `<function=N>` and `<parameter=K>V</parameter>`. */
import type { RenderCall, RenderOptions } from './index';
import { renderFunctionBlocks } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  return renderFunctionBlocks(calls, options.prose, {
    open: '<seed:tool_call>',
    close: '</seed:tool_call>',
    newlines: false,
  });
}
