/** FunctionGemma chat template: `call:NAME{k:v,..}` with strings between `<escape>` tokens, other values bare. */
import type { RenderCall, RenderOptions } from './index';
import { lead } from './render-values';

function value(item: unknown): string {
  if (typeof item === 'string') return `<escape>${item}<escape>`;
  if (Array.isArray(item)) return `[${item.map(value).join(',')}]`;
  if (item !== null && typeof item === 'object')
    return `{${Object.entries(item)
      .map(([key, member]) => `${key}:${value(member)}`)
      .join(',')}}`;
  return String(item);
}

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  const call = (item: RenderCall) =>
    `<start_function_call>call:${item.name}${value(item.arguments)}<end_function_call>`;
  return lead(options.prose) + calls.map(call).join('');
}
