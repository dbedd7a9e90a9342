/** Gemma's prompted function calling: a ```tool_code fence with one call per line. */
import type { RenderCall, RenderOptions } from './index';
import { lead, pythonCall } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  return `${lead(options.prose)}\`\`\`tool_code\n${calls.map(pythonCall).join('\n')}\n\`\`\``;
}

/**
 * One expression on the opener's line, as the Gemma 3 function-calling example's reader takes it
 * (`` ```tool_code\s*(.*?)\s*``` `` then `eval`): `print` of every call.
 */
export function renderPrint(calls: readonly RenderCall[], options: RenderOptions): string {
  return `${lead(options.prose)}\`\`\`tool_code print(${calls.map(pythonCall).join(', ')})\`\`\``;
}
