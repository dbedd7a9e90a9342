/** DeepSeek V3.2 DSML (`encoding_dsv32.py`): strings as written with `string="true"`, other values as JSON. */
import type { RenderCall, RenderOptions } from './index';
import { lead, toJson } from './render-values';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  const parameter = ([key, value]: [string, unknown]) =>
    typeof value === 'string'
      ? `<｜DSML｜parameter name="${key}" string="true">${value}</｜DSML｜parameter>\n`
      : `<｜DSML｜parameter name="${key}" string="false">${toJson(value)}</｜DSML｜parameter>\n`;
  const invoke = (call: RenderCall) =>
    `<｜DSML｜invoke name="${call.name}">\n${Object.entries(call.arguments).map(parameter).join('')}</｜DSML｜invoke>\n`;
  return `${lead(options.prose)}<｜DSML｜function_calls>\n${calls.map(invoke).join('')}</｜DSML｜function_calls>`;
}
