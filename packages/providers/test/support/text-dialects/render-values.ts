/**
 * How chat templates write values: `tojson` (Python's `json.dumps` separators, non-ASCII kept, via the hermes
 * module's `pythonJsonDumps`), and Python's `repr` of literals (pythonic and Gemma `tool_code` calls).
 */
import { pythonJsonDumps } from '@toolwright/providers/hermes';
import type { RenderCall } from './index';

export { pythonJsonDumps as toJson };

/** A string as Python's repr writes it, in single quotes. */
function pythonString(value: string): string {
  let out = "'";
  for (const character of value) {
    if (character === '\\') out += '\\\\';
    else if (character === "'") out += "\\'";
    else if (character === '\n') out += '\\n';
    else if (character === '\r') out += '\\r';
    else if (character === '\t') out += '\\t';
    else if (character < ' ') out += `\\x${character.charCodeAt(0).toString(16).padStart(2, '0')}`;
    else out += character;
  }
  return `${out}'`;
}

/** A JSON value as a Python literal (True/False/None, single-quoted strings, lists, dicts). */
export function pythonLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return pythonString(value);
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([key, item]) => `${pythonString(key)}: ${pythonLiteral(item)}`)
    .join(', ')}}`;
}

/** `name(key=value, ...)`. */
export function pythonCall(call: RenderCall): string {
  return `${call.name}(${Object.entries(call.arguments)
    .map(([key, value]) => `${key}=${pythonLiteral(value)}`)
    .join(', ')})`;
}

/** A parameter value as the XML-style templates write it: strings as they are, everything else as `tojson`. */
export function rawText(value: unknown): string {
  return typeof value === 'string' ? value : pythonJsonDumps(value);
}

/** Prose, then a blank line, when there is prose. */
export function lead(prose: string | undefined): string {
  return prose === undefined || prose === '' ? '' : `${prose}\n\n`;
}

/**
 * The `<function=N><parameter=K>V</parameter></function>` calls of Qwen3-Coder and Seed-OSS between a block's tags;
 * Qwen3-Coder's template puts each value on its own lines (`newlines`), Seed-OSS's does not.
 */
export function renderFunctionBlocks(
  calls: readonly RenderCall[],
  prose: string | undefined,
  tags: { readonly open: string; readonly close: string; readonly newlines: boolean },
): string {
  const edge = tags.newlines ? '\n' : '';
  const block = (call: RenderCall) =>
    `${tags.open}\n<function=${call.name}>\n${Object.entries(call.arguments)
      .map(([key, value]) => `<parameter=${key}>${edge}${rawText(value)}${edge}</parameter>\n`)
      .join('')}</function>\n${tags.close}`;
  return lead(prose) + calls.map(block).join('\n');
}

/** `<invoke name="N"><parameter name="K">V</parameter></invoke>` calls in one block (Claude-style XML, MiniMax-M2). */
export function renderInvokeBlock(
  calls: readonly RenderCall[],
  prose: string | undefined,
  tags: { readonly open: string; readonly close: string },
): string {
  const invoke = (call: RenderCall) =>
    `<invoke name="${call.name}">\n${Object.entries(call.arguments)
      .map(([key, value]) => `<parameter name="${key}">${rawText(value)}</parameter>\n`)
      .join('')}</invoke>\n`;
  return `${lead(prose)}${tags.open}\n${calls.map(invoke).join('')}${tags.close}`;
}

/** `<arg_key>K</arg_key>\n<arg_value>V</arg_value>\n` per argument (GLM-4.5 and Hunyuan), values as raw text. */
export function renderArgPairs(call: RenderCall): string {
  return Object.entries(call.arguments)
    .map(([key, value]) => `<arg_key>${key}</arg_key>\n<arg_value>${rawText(value)}</arg_value>\n`)
    .join('');
}
