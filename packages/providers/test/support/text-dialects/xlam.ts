/** xLAM: a JSON list of calls in a ```json fence. */
import type { RenderCall, RenderOptions } from './index';
import { lead } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  const list = calls.map((call) => ({ name: call.name, arguments: call.arguments }));
  return `${lead(options.prose)}\`\`\`json\n${JSON.stringify(list, null, 2)}\n\`\`\``;
}
