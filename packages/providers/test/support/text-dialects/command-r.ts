/** Command-R tool use: `Plan: ..` then `Action: ```json` and a list of `{"tool_name", "parameters"}`. */
import type { RenderCall, RenderOptions } from './index';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  const list = calls.map((call) => ({ tool_name: call.name, parameters: call.arguments }));
  const plan = options.prose === undefined || options.prose === '' ? '' : `Plan: ${options.prose}\n`;
  return `${plan}Action: \`\`\`json\n${JSON.stringify(list, null, 4)}\n\`\`\``;
}

/**
 * The multi-step form langchain-cohere's `parse_actions` reads (react_multi_hop/parsing.py): a `Plan:` (first step) or
 * `Reflection:`, then a numbered `Action 1:` with the fence on the next line.
 */
export function renderMultiStep(calls: readonly RenderCall[], options: RenderOptions): string {
  const list = calls.map((call) => ({ tool_name: call.name, parameters: call.arguments }));
  const lead = options.prose === undefined || options.prose === '' ? 'Reflection: next.' : `Plan: ${options.prose}`;
  return `${lead}\nAction 1:\n\`\`\`json\n${JSON.stringify(list, null, 4)}\n\`\`\``;
}
