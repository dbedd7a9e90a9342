/**
 * Typing the raw text values of XML-style dialects (`<parameter=days>3</parameter>`) by the tool's schema, with
 * the executor's own lossless conversions (core's `toInteger`, `toFloat`, `toBoolean` and its tolerant JSON reader),
 * never by guessing: a raw `None` or `null` is null; a string parameter keeps the text; an integer, number, boolean,
 * array or object parameter gets the value the text spells exactly; when the schema allows a string and another
 * type the text also spells (`"3"` for `string | integer`), there are two readings and the call is refused.
 * Text no conversion reads is kept as text, for the executor to refuse with its own message.
 */
import { toBoolean, toFloat, toInteger } from '@toolwright/core/internal';
import { isPlainObject, schemaTypes, type JsonSchema } from '../shared/json-schema';
import { propertiesOf } from '../shared/json-schema';
import { readJsonText } from './read/json';

/** The literals that compete with the text for a parameter of any type (`yes` is text there). */
const BOOLEAN_LITERAL = /^\s*(?:true|false|True|False)\s*$/;

export type TypedArguments =
  { readonly ok: true; readonly arguments: Record<string, unknown> } | { readonly ok: false; readonly reason: string };

const NULL_WORDS = new Set(['None', 'null']);
const ANY_TYPE: ReadonlySet<string> = new Set(['number', 'boolean', 'array', 'object']);

/** The JSON types a schema node allows (its `type`, else the union of its `anyOf`/`oneOf` branches, else enum values). */
function allowedTypes(schema: JsonSchema): Set<string> {
  const types = new Set(schemaTypes(schema));
  if (types.size === 0)
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const branches = schema[keyword];
      if (Array.isArray(branches))
        for (const branch of branches)
          if (isPlainObject(branch)) for (const type of allowedTypes(branch)) types.add(type);
    }
  if (types.size === 0 && Array.isArray(schema['enum']))
    for (const value of schema['enum'] as unknown[])
      types.add(value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
  if (types.size === 0 && isPlainObject(schema['properties'])) types.add('object');
  return types;
}

function readContainer(raw: string, kind: 'array' | 'object'): { value: unknown } | undefined {
  const text = raw.trim();
  if (!text.startsWith(kind === 'array' ? '[' : '{')) return undefined;
  const read = readJsonText(text, 0, text.length);
  if (!read.ok) return undefined;
  if (kind === 'array' ? !Array.isArray(read.value) : !isPlainObject(read.value)) return undefined;
  return { value: read.value };
}

/** The readings of one raw value other than as text, per type the schema allows. */
function readings(raw: string, types: ReadonlySet<string>, anyType: boolean): unknown[] {
  const found: unknown[] = [];
  const add = (value: unknown) => {
    if (!found.some((other) => JSON.stringify(other) === JSON.stringify(value))) found.push(value);
  };
  for (const type of types) {
    if (type === 'integer' || type === 'number') {
      const outcome = type === 'integer' ? toInteger(raw, true) : toFloat(raw, true);
      if (outcome.ok) add(outcome.value);
    } else if (type === 'boolean') {
      // For a parameter of any type only the literals compete with the text (`yes` is text there).
      if (anyType && !BOOLEAN_LITERAL.test(raw)) continue;
      const outcome = toBoolean(raw, true);
      if (outcome.ok) add(outcome.value);
    } else if (type === 'array' || type === 'object') {
      const container = readContainer(raw, type);
      if (container) add(container.value);
    }
  }
  return found;
}

/** One raw value typed by its parameter's schema; `undefined` schema (a key the tool does not declare) keeps the text. */
export function typeRawValue(
  raw: string,
  schema: JsonSchema | undefined,
): { readonly value: unknown } | { readonly reason: string } {
  if (NULL_WORDS.has(raw.trim())) return { value: null };
  if (!schema) return { value: raw };
  const types = allowedTypes(schema);
  // A parameter of any type: every JSON reading of the text competes with the text itself.
  const others = readings(raw, types.size === 0 ? ANY_TYPE : types, types.size === 0);
  const text = types.has('string') || types.size === 0;
  if (others.length === 0) return { value: raw };
  if (others.length === 1 && !text) return { value: others[0] };
  return {
    reason: `the value ${JSON.stringify(raw)} has ${text ? 'a text reading and ' : ''}${others.length} typed reading(s) (${others
      .map((value) => JSON.stringify(value))
      .join(', ')}) under the parameter's schema`,
  };
}

/** Every raw value of a call typed by the tool's parameters schema. */
export function typeRawArguments(raw: Record<string, unknown>, parameters: JsonSchema | undefined): TypedArguments {
  const properties = new Map(parameters ? propertiesOf(parameters) : []);
  const typed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (typeof value !== 'string') {
      defineArgument(typed, key, value);
      continue;
    }
    const outcome = typeRawValue(value, properties.get(key));
    if ('reason' in outcome) return { ok: false, reason: `parameter "${key}": ${outcome.reason}` };
    defineArgument(typed, key, outcome.value);
  }
  return { ok: true, arguments: typed };
}

/** Sets an own data property, so a key such as `__proto__` stays a key (the executor drops it) and never a prototype. */
export function defineArgument(target: Record<string, unknown>, key: string, value: unknown): void {
  // `__proto__` is the one key an assignment does not set as a data property (Object.prototype's accessor).
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
