import Ajv, { type ValidateFunction } from 'ajv';
import { DAMAGE_TOOLS, type DamagedCall, type DamageTool } from './damaged-calls';

/**
 * The brute-force oracle of the reading search's property test, written apart from the search: it knows nothing of
 * the recognizer, the reader or the executor. A reading of a text is a text at most two edits away (a character of
 * `{ } [ ] : , "` inserted anywhere, or one of them removed or replaced by another) that `JSON.parse` reads as an
 * object the tool's JSON Schema accepts (ajv, no coercion); a text that only gains characters at its end is a
 * completion, never a reading. The label says what the readings at the smallest distance give.
 *
 * Pruned soundly, by a necessary condition (strings close, brackets match) before `JSON.parse`, and by the prefix
 * argument: `JSON.parse` stops at the first character no document can continue
 * with, so an edit of a reading sits at or before that position (when V8 names it; else anywhere), and with two edits
 * the higher one sits at or after the lower one and at or before where the text with the lower one applied stops.
 * Literal `\n`, `\t`, `\r` (two characters) are a family of their own: the fewest of them read as white space.
 */

export type OracleLabel =
  /** One value at the smallest distance (`value`: its canonical JSON, omitted when it is the original's). */
  | { readonly kind: 'one'; readonly value?: string }
  | { readonly kind: 'several' }
  /** No reading within two edits. */
  | { readonly kind: 'none' }
  /** `JSON.parse` fails only at the end: a cut-off text. */
  | { readonly kind: 'cut-off' };

const EDIT_CHARACTERS = ['{', '}', '[', ']', ':', ',', '"'];

const ajv = new Ajv({ strict: false });
const validators = new Map<DamageTool, ValidateFunction>();
function validatorOf(tool: DamageTool): ValidateFunction {
  let validate = validators.get(tool);
  if (validate === undefined) validators.set(tool, (validate = ajv.compile(DAMAGE_TOOLS[tool])));
  return validate;
}

/** JSON with object keys sorted: equal values, equal texts. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_, inner: unknown) =>
    typeof inner === 'object' && inner !== null && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/**
 * A necessary condition of a JSON document, cheap enough to run before `JSON.parse` on every candidate (whose refusals
 * throw, and throwing dominates the oracle's time): every string closes, and brackets outside strings match.
 */
function bracketsMatch(text: string): boolean {
  const open: string[] = [];
  for (let at = 0; at < text.length; at++) {
    const character = text[at]!;
    if (character === '"') {
      at++;
      while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
      if (at >= text.length) return false;
    } else if (character === '{' || character === '[') open.push(character === '{' ? '}' : ']');
    else if ((character === '}' || character === ']') && open.pop() !== character) return false;
  }
  return open.length === 0;
}

type Parsed =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly stop: number; readonly atEnd: boolean };

function parse(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const message = (error as Error).message;
    if (/Unexpected end of JSON input|Unterminated string/.test(message))
      return { ok: false, stop: text.length, atEnd: true };
    const position = /at position (\d+)/.exec(message);
    // V8 names the text's length when the text ends before the document does: cut off, like the two messages above.
    if (position && Number(position[1]) >= text.length) return { ok: false, stop: text.length, atEnd: true };
    // One past what V8 names, as a margin; without a position, anywhere.
    return { ok: false, stop: position ? Math.min(Number(position[1]) + 1, text.length) : text.length, atEnd: false };
  }
}

interface Edit {
  readonly at: number;
  readonly remove: boolean;
  readonly insert: string;
}

function* editsBetween(text: string, from: number, to: number): Generator<Edit> {
  const last = Math.min(to, text.length - 1);
  for (let at = from; at <= last; at++) {
    for (const insert of EDIT_CHARACTERS) yield { at, remove: false, insert };
    if (EDIT_CHARACTERS.includes(text[at]!)) {
      yield { at, remove: true, insert: '' };
      for (const insert of EDIT_CHARACTERS) if (insert !== text[at]) yield { at, remove: true, insert };
    }
  }
}

function countQuotes(text: string): number {
  let count = 0;
  for (let at = text.indexOf('"'); at !== -1; at = text.indexOf('"', at + 1)) if (text[at - 1] !== '\\') count++;
  return count;
}

/** Whether an edit changes the number of quotes by one. */
function changesQuotes(text: string, edit: Edit): boolean {
  return (edit.insert === '"') !== (edit.remove && text[edit.at] === '"');
}

function apply(text: string, edit: Edit): string {
  return text.slice(0, edit.at) + edit.insert + text.slice(edit.at + (edit.remove ? 1 : 0));
}

function labelOf(values: readonly string[], original: string): OracleLabel {
  if (values.length === 0) return { kind: 'none' };
  if (values.some((value) => value !== values[0])) return { kind: 'several' };
  return values[0] === original ? { kind: 'one' } : { kind: 'one', value: values[0]! };
}

/** The label of one damaged call. */
export function labelDamagedCall(call: DamagedCall): OracleLabel {
  const validate = validatorOf(call.tool);
  const original = canonicalJson(call.original);
  const accepted = (text: string): string | undefined => {
    if (!bracketsMatch(text)) return undefined;
    const parsed = parse(text);
    if (!parsed.ok) return undefined;
    const value = parsed.value;
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !validate(value)) return undefined;
    return canonicalJson(value);
  };
  const { text } = call;
  if (call.damage === 'envelope-with-siblings') return labelEnvelope(call, validate, original);
  const parsed = parse(text);
  if (parsed.ok) {
    const value = accepted(text);
    return value === undefined ? { kind: 'none' } : labelOf([value], original);
  }
  if (parsed.atEnd) return { kind: 'cut-off' };
  if (/\\[ntr]/.test(text) && call.damage === 'literal-newlines') return labelLiteralEscapes(text, accepted, original);
  const readings: string[] = [];
  const failed: Edit[] = [];
  for (const edit of editsBetween(text, 0, parsed.stop)) {
    const candidate = apply(text, edit);
    if (candidate.startsWith(text)) continue;
    const value = accepted(candidate);
    if (value !== undefined) readings.push(value);
    else failed.push(edit);
  }
  if (readings.length > 0) return labelOf(readings, original);
  // A document's unescaped quotes pair up: two edits must leave their count even (the cases' strings hold no `\"`).
  const oddQuotes = (countQuotes(text) & 1) === 1;
  for (const first of failed) {
    const edited = apply(text, first);
    const again = parse(edited);
    const stop = again.ok ? edited.length : again.stop;
    const quoteFirst = changesQuotes(text, first);
    for (const second of editsBetween(edited, first.at, stop)) {
      if ((quoteFirst !== changesQuotes(edited, second)) !== oddQuotes) continue;
      const candidate = apply(edited, second);
      if (candidate.startsWith(text)) continue;
      const value = accepted(candidate);
      if (value !== undefined) readings.push(value);
    }
  }
  return labelOf(readings, original);
}

/** Literal escapes of white space: every choice of them read as a space, the fewest that give accepted documents. */
function labelLiteralEscapes(
  text: string,
  accepted: (text: string) => string | undefined,
  original: string,
): OracleLabel {
  const places: number[] = [];
  for (let at = text.indexOf('\\'); at !== -1; at = text.indexOf('\\', at + 1))
    if (/[ntr]/.test(text[at + 1] ?? '')) places.push(at);
  if (places.length > 10) return { kind: 'none' };
  let best = Infinity;
  let values: string[] = [];
  for (let mask = 1; mask < 1 << places.length; mask++) {
    let count = 0;
    let candidate = text;
    for (let index = places.length - 1; index >= 0; index--) {
      if (!(mask & (1 << index))) continue;
      count++;
      candidate = candidate.slice(0, places[index]) + ' ' + candidate.slice(places[index]! + 2);
    }
    if (count > best) continue;
    const value = accepted(candidate);
    if (value === undefined) continue;
    if (count < best) {
      best = count;
      values = [];
    }
    values.push(value);
  }
  return labelOf(values, original);
}

/** An envelope beside parameters sent flat: its content and the siblings (a `name` naming the tool aside) together. */
function labelEnvelope(call: DamagedCall, validate: ValidateFunction, original: string): OracleLabel {
  const value = JSON.parse(call.text) as Record<string, unknown>;
  const words = ['arguments', 'parameters', 'args', 'input', 'params'];
  const merged: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'name' && inner === call.tool) continue;
    if (words.includes(key) && typeof inner === 'object' && inner !== null) {
      for (const [innerKey, innerValue] of Object.entries(inner)) {
        if (innerKey in merged && canonicalJson(merged[innerKey]) !== canonicalJson(innerValue))
          return { kind: 'several' };
        merged[innerKey] = innerValue;
      }
    } else merged[key] = inner;
  }
  return validate(merged) ? labelOf([canonicalJson(merged)], original) : { kind: 'none' };
}

/** The label as one line of the fixture: `o`, `O<json>`, `s`, `n` or `c`. */
export function labelLine(label: OracleLabel): string {
  switch (label.kind) {
    case 'one':
      return label.value === undefined ? 'o' : `O${label.value}`;
    case 'several':
      return 's';
    case 'none':
      return 'n';
    case 'cut-off':
      return 'c';
  }
}

export function parseLabelLine(line: string): OracleLabel {
  switch (line[0]) {
    case 'o':
      return { kind: 'one' };
    case 'O':
      return { kind: 'one', value: line.slice(1) };
    case 's':
      return { kind: 'several' };
    case 'c':
      return { kind: 'cut-off' };
    default:
      return { kind: 'none' };
  }
}
