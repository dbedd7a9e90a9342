/** OpenAI's Chat Completions `tool_calls` shape written into content (arguments as a JSON string). */
import type { RenderCall, RenderOptions } from './index';
import { lead } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  const toolCalls = calls.map((call, index) => ({
    id: `call_${index + 1}`,
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
  return lead(options.prose) + JSON.stringify({ tool_calls: toolCalls }, null, 2);
}
