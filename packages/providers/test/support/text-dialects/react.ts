/** ReAct: `Thought: ..`, `Action: NAME`, `Action Input: {..}` per call. */
import type { RenderCall, RenderOptions } from './index';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  const thought = options.prose === undefined || options.prose === '' ? '' : `Thought: ${options.prose}\n`;
  return calls
    .map(
      (call, index) =>
        `${index === 0 ? thought : 'Thought: next\n'}Action: ${call.name}\nAction Input: ${JSON.stringify(call.arguments)}`,
    )
    .join('\n\n');
}
