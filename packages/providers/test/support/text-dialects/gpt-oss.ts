/** gpt-oss harmony: a commentary preamble for the prose, then one commentary message per call, ended by `<|call|>`. */
import type { RenderCall, RenderOptions } from './index';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  const preamble =
    options.prose === undefined || options.prose === ''
      ? ''
      : `<|channel|>commentary<|message|>${options.prose}<|end|><|start|>assistant`;
  const call = (item: RenderCall) =>
    `<|channel|>commentary to=functions.${item.name} <|constrain|>json<|message|>${JSON.stringify(item.arguments)}<|call|>`;
  return preamble + calls.map(call).join('<|start|>assistant');
}
