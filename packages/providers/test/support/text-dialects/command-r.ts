/** Command-R tool use: `Plan: ..` then `Action: ```json` and a list of `{"tool_name", "parameters"}`. */
import type { RenderCall, RenderOptions } from './index';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  const list = calls.map((call) => ({ tool_name: call.name, parameters: call.arguments }));
  const plan = options.prose === undefined || options.prose === '' ? '' : `Plan: ${options.prose}\n`;
  return `${plan}Action: \`\`\`json\n${JSON.stringify(list, null, 4)}\n\`\`\``;
}
