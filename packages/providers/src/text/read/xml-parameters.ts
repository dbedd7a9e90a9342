/**
 * XML-style calls: a function opener naming the tool, parameters as `<open K>raw text</close>`, and the function's
 * closing tag (Qwen3-Coder and Seed-OSS `<function=N><parameter=K>V</parameter></function>`; the `<invoke name=..>
 * <parameter name=..>` forms share it). A value is raw text, typed later by the tool's schema. A value may hold the
 * closing tag itself: a parameter ends at the first closing tag followed (after blanks) by the next parameter or the
 * function's end, which is the structure around it; a text that ends first is a cut-off call.
 */
import type { DialectCall } from '../dialect';
import { defineArgument } from '../raw-values';
import { skipBlank } from './tags';

export interface XmlCallSyntax {
  /** the function opener at a position, capturing the name (a sticky expression) */
  readonly functionOpen: RegExp;
  readonly functionClose: string;
  /** a parameter opener at a position, capturing the key (a sticky expression) */
  readonly parameterOpen: RegExp;
  readonly parameterClose: string;
  /**
   * The template writes each value inline (`<arg_value>V</arg_value>`): every character between the tags is the
   * value's. Without it the template puts the value on lines of its own (`<parameter=K>\nV\n</parameter>`) and one
   * newline on each side belongs to the markup.
   */
  readonly inline?: boolean;
  /**
   * A syntax whose parameters say their own type (DeepSeek V3.2's `string="true|false"`) reads each value here from
   * its raw text and its opener's match; the call's values are then typed (not raw). Without it every value is raw
   * text, typed later by the tool's schema.
   */
  readonly value?: (raw: string, opener: RegExpExecArray) => { readonly value: unknown } | { readonly reason: string };
}

export type XmlCallRead =
  | { readonly ok: true; readonly call: DialectCall; readonly end: number }
  | { readonly ok: false; readonly name?: string; readonly reason: string; readonly end: number };

function matchAt(pattern: RegExp, text: string, position: number): RegExpExecArray | null {
  pattern.lastIndex = position;
  return pattern.exec(text);
}

/** The template writes `<parameter=K>\nV\n</parameter>`: one newline on each side belongs to the markup. */
function trimMarkupNewlines(raw: string): string {
  return raw.replace(LEADING_NEWLINE, '').replace(TRAILING_NEWLINE, '');
}

const LEADING_NEWLINE = /^\r?\n/;
const TRAILING_NEWLINE = /\r?\n$/;

/** Where a parameter's value ends: the first closing tag followed by another parameter or the function's end. */
function valueEnd(text: string, from: number, syntax: XmlCallSyntax): number {
  for (let close = text.indexOf(syntax.parameterClose, from); close >= 0;) {
    const after = skipBlank(text, close + syntax.parameterClose.length);
    if (text.startsWith(syntax.functionClose, after) || matchAt(syntax.parameterOpen, text, after)) return close;
    close = text.indexOf(syntax.parameterClose, close + 1);
  }
  return -1;
}

/** The function call opening at `start` (where `functionOpen` matches). */
export function readXmlCall(text: string, start: number, syntax: XmlCallSyntax): XmlCallRead {
  const opener = matchAt(syntax.functionOpen, text, start);
  if (!opener) return { ok: false, reason: 'no function opener', end: start };
  const name = (opener[1] ?? '').trim();
  const argumentsObject: Record<string, unknown> = {};
  let position = start + opener[0].length;
  for (;;) {
    position = skipBlank(text, position);
    if (text.startsWith(syntax.functionClose, position))
      return {
        ok: true,
        call: { name, arguments: argumentsObject, rawValues: syntax.value === undefined },
        end: position + syntax.functionClose.length,
      };
    if (position >= text.length)
      return { ok: false, name, reason: 'the call is cut off before its closing tag', end: text.length };
    const parameter = matchAt(syntax.parameterOpen, text, position);
    if (!parameter)
      return {
        ok: false,
        name,
        reason: `unexpected text ${JSON.stringify(text.slice(position, position + 40))} inside the call`,
        end: position,
      };
    const key = (parameter[1] ?? '').trim();
    const valueStart = position + parameter[0].length;
    const close = valueEnd(text, valueStart, syntax);
    if (close < 0)
      return { ok: false, name, reason: `the value of "${key}" is cut off before its closing tag`, end: text.length };
    if (Object.hasOwn(argumentsObject, key))
      return { ok: false, name, reason: `the parameter "${key}" is given twice`, end: close };
    const written = text.slice(valueStart, close);
    const raw = syntax.inline ? written : trimMarkupNewlines(written);
    const value = syntax.value ? syntax.value(raw, parameter) : { value: raw };
    if ('reason' in value) return { ok: false, name, reason: `parameter "${key}": ${value.reason}`, end: close };
    defineArgument(argumentsObject, key, value.value);
    position = close + syntax.parameterClose.length;
  }
}

/** Whether closing tags of the syntax appear in `text` between `from` and `to` (stray tags: a second reading). */
export function strayClosingTag(text: string, from: number, to: number, tags: readonly string[]): string | undefined {
  const region = text.slice(from, to);
  return tags.find((tag) => region.includes(tag));
}

/** Parameters as `<arg_key>K</arg_key><arg_value>V</arg_value>` pairs (GLM-4.5 / 4.6 / 4.7, Hunyuan). */
export const ARG_KEY_VALUE: Pick<XmlCallSyntax, 'parameterOpen' | 'parameterClose' | 'inline'> = {
  parameterOpen: /<arg_key>([^<>\n]*)<\/arg_key>\s*<arg_value>/y,
  parameterClose: '</arg_value>',
  inline: true,
};
