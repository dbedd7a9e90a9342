import type { SeededRandom } from './seeded-random';

/**
 * Random JSON Schema tools and random arguments texts for them (the fused-parse-check and generated-reader
 * differential tests): nested objects and arrays, nullable values, bounds, enums, date-times, numbers without bounds,
 * hostile and envelope-like property names; texts compact and spaced, with duplicate keys at every depth, integers
 * beyond 2^53, escapes, wrapped calls, prototype keys, double encoding, fences and broken JSON.
 */

/** The tool name the texts' envelopes use (sometimes another). */
export const TOOL = 'fused_tool';

type Random = SeededRandom;
export type JsonSchema = Record<string, unknown>;

const NAMES = [
  'a',
  'id',
  'when',
  'title',
  'count',
  'ratio',
  'tags',
  '',
  'items',
  'x'.repeat(40),
  'ké',
  'emoji 😀',
  'say "hi"',
  'back\\slash',
  'new\nline',
  'tab\tkey',
  'name',
  'arguments',
  'parameters',
  'function',
  'type',
  '__proto__',
  'constructor',
  'prototype',
  // Keys objects list first (array indexes), names that extend another one (the registry refuses names
  // Object.prototype has).
  '0',
  '12',
  'titles',
  'ids',
];
const STRINGS = [
  '',
  'x',
  'hello',
  'Quarterly planning',
  'a"b',
  'back\\slash',
  'new\nline',
  'é',
  '😀',
  '2026-01-31T09:00:00+01:00',
  '2026-02-30',
  '2026-01-31',
];
const INTEGERS = [0, 7, 9, 10, 45, 99, 100, -1, -9, -10, -99, -100, 123456, 9007199254740991, -9007199254740991];
const FLOATS = [0.5, 1.25, -7.5, 3, 1e20, -1e20, 1e300, 9007199254740992, 0.1];
/** Integer literals JSON.parse rounds (or does not), written as the model would. */
const BIG_LITERALS = [
  '9007199254740993',
  '-9007199254740993',
  '12345678901234567890',
  '9007199254740992',
  '1e16',
  '123456789012345678901234567890',
];

function scalarSchema(random: Random): JsonSchema {
  switch (random.below(12)) {
    case 9:
      return { type: 'string', pattern: random.pick(['^[a-z]+$', 'l', '^2026-']) };
    case 10:
      return { type: 'integer', multipleOf: random.pick([3, 5]), exclusiveMinimum: -10 };
    case 11:
      return { type: 'number', exclusiveMaximum: 100, ...(random.chance(0.5) ? { multipleOf: 0.5 } : {}) };
    case 0:
      return { type: 'string' };
    case 1:
      return { type: 'string', maxLength: 1 + random.below(12), ...(random.chance(0.3) ? { minLength: 1 } : {}) };
    case 2:
      return { type: 'string', enum: ['low', 'high', 'a"b', 'x'].slice(0, 1 + random.below(4)) };
    case 3:
      return random.chance(0.5)
        ? { type: 'integer' }
        : { type: 'integer', minimum: -100 + random.below(100), maximum: random.below(200) };
    case 4:
      return random.chance(0.6) ? { type: 'number' } : { type: 'number', minimum: -10, maximum: 1000 };
    case 5:
      return { type: 'boolean' };
    case 6:
      return { type: 'string', format: 'date-time' };
    case 7:
      return { type: 'string', format: 'date' };
    default:
      return { type: 'integer', enum: [1, 2, 3, 10] };
  }
}

function schemaFor(random: Random, depth: number): JsonSchema {
  const roll = random.below(depth >= 3 ? 6 : 10);
  let schema: JsonSchema;
  if (roll < 6) schema = scalarSchema(random);
  else if (roll < 8)
    schema = {
      type: 'array',
      items: schemaFor(random, depth + 1),
      ...(random.chance(0.3) ? { maxItems: 2 + random.below(4) } : {}),
      ...(random.chance(0.15) ? { minItems: 1 + random.below(2) } : {}),
      ...(random.chance(0.15) ? { uniqueItems: true } : {}),
    };
  else schema = objectSchema(random, depth + 1);
  if (random.chance(0.15) && typeof schema['type'] === 'string') schema = { ...schema, type: [schema['type'], 'null'] };
  return schema;
}

export function objectSchema(random: Random, depth: number): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const count = 1 + random.below(depth === 1 ? 7 : 4);
  for (let index = 0; index < count; index++) {
    const name = random.chance(0.6) ? random.pick(NAMES.slice(0, 8)) : random.pick(NAMES);
    if (Object.prototype.hasOwnProperty.call(properties, name)) continue;
    Object.defineProperty(properties, name, {
      value: schemaFor(random, depth),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    if (random.chance(0.5)) required.push(name);
  }
  return {
    type: 'object',
    properties,
    required,
    ...(random.chance(0.2) ? { additionalProperties: random.chance(0.5) } : {}),
  };
}

/** A value for a schema, usually valid. */
function valueFor(random: Random, schema: JsonSchema, depth: number): unknown {
  let type = schema['type'];
  if (Array.isArray(type)) {
    if (random.chance(0.25)) return null;
    type = type[0];
  }
  if (random.chance(0.03)) return random.pick<unknown>(['x', 1, null, true, [], {}]);
  if (Array.isArray(schema['enum'])) return random.pick(schema['enum'] as unknown[]);
  switch (type) {
    case 'string':
      if (schema['format'] === 'date-time')
        return random.pick(['2026-01-31T09:00:00+01:00', '2026-11-26T16:05:00Z', '2026-01-31 09:00']);
      if (schema['format'] === 'date') return random.pick(['2026-01-31', '2026-02-29', '2024-02-29']);
      return random.pick(STRINGS);
    case 'integer':
      return random.pick(INTEGERS);
    case 'number':
      return random.chance(0.5) ? random.pick(FLOATS) : random.pick(INTEGERS);
    case 'boolean':
      return random.chance(0.5);
    case 'array': {
      const items: unknown[] = [];
      const count = random.chance(0.1) ? 5 : random.below(4);
      for (let index = 0; index < count; index++)
        items.push(valueFor(random, schema['items'] as JsonSchema, depth + 1));
      return items;
    }
    default: {
      const properties = schema['properties'] as Record<string, JsonSchema>;
      const required = schema['required'] as string[];
      const value: Record<string, unknown> = {};
      for (const name of Object.keys(properties)) {
        if (!required.includes(name) && random.chance(0.35)) continue;
        Object.defineProperty(value, name, {
          value: valueFor(random, properties[name]!, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      if (random.chance(0.03)) value[random.pick(['extra', '__proto__', 'constructor', 'Title'])] = 1;
      return value;
    }
  }
}

/** How one text is written. */
interface Style {
  readonly spaced: boolean;
  /** Chance of a member written twice (the first copy JSON.parse drops). */
  readonly duplicates: number;
  readonly bigIntegers: number;
  readonly escapes: number;
  /** Chance of an object written with a first member JSON.parse drops that is as short as can be (`"":0,`). */
  readonly tight: number;
}

/** A string literal, sometimes with a character written as a \u escape or `/` as `\/`. */
function stringText(random: Random, text: string, style: Style): string {
  const literal = JSON.stringify(text);
  if (text.length === 0 || !random.chance(style.escapes)) return literal;
  // `\/` is `/`: the value gains a slash, the text a backslash.
  if (random.chance(0.2)) return `"\\/${literal.slice(1)}`;
  const at = random.below(text.length);
  const code = text.charCodeAt(at);
  return (
    JSON.stringify(text.slice(0, at)).slice(0, -1) +
    `\\u${code.toString(16).padStart(4, '0')}` +
    JSON.stringify(text.slice(at + 1)).slice(1)
  );
}

function write(random: Random, value: unknown, style: Style): string {
  const gap = () => (style.spaced && random.chance(0.7) ? random.pick([' ', '\n  ', '\t']) : '');
  if (typeof value === 'string') return stringText(random, value, style);
  if (typeof value === 'number') {
    if (Number.isInteger(value) && random.chance(style.bigIntegers)) return random.pick(BIG_LITERALS);
    return JSON.stringify(value);
  }
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (Array.isArray(value))
    return `[${value.map((item) => `${gap()}${write(random, item, style)}`).join(',')}${gap()}]`;
  const members: string[] = [];
  const keys = Object.keys(value);
  if (keys.length > 0 && random.chance(style.tight)) {
    // The dropped copy of the shortest key, with the shortest value: the text is only `"":0,` (5 characters) longer
    // than the value's bound when that key is `""`, so a bound one too high takes it for lossless.
    const shortest = keys.reduce((best, key) => (key.length < best.length ? key : best));
    members.push(`${JSON.stringify(shortest)}:0`);
  }
  for (const key of keys) {
    const inner = (value as Record<string, unknown>)[key];
    const member = () => `${gap()}${stringText(random, key, style)}${gap()}:${gap()}${write(random, inner, style)}`;
    if (random.chance(style.duplicates)) {
      // The copy JSON.parse drops: the same value, or a short or long other one.
      const dropped = random.pick<unknown>([
        inner,
        0,
        1,
        '',
        'other value',
        [1, 2],
        { a: 1 },
        null,
        12345678901234567890,
      ]);
      members.push(
        random.chance(0.5) ? `${stringText(random, key, style)}:${write(random, dropped, style)}` : member(),
      );
    }
    members.push(member());
  }
  return `{${members.join(',')}${gap()}}`;
}

export function textFor(random: Random, schema: JsonSchema): string {
  const value = valueFor(random, schema, 1);
  const roll = random.below(10);
  const style: Style = {
    spaced: roll >= 7,
    duplicates: random.chance(0.3) ? 0.15 : 0,
    bigIntegers: random.chance(0.15) ? 0.3 : 0,
    escapes: random.chance(0.15) ? 0.2 : 0,
    tight: roll < 7 && random.chance(0.3) ? 0.5 : 0,
  };
  let text = write(random, value, style);
  switch (random.below(25)) {
    case 0:
      text = `{"name":${JSON.stringify(random.chance(0.7) ? TOOL : 'other_tool')},"arguments":${text}}`;
      break;
    case 1:
      text = `{"name":"${TOOL}","arguments":${JSON.stringify(text)}}`;
      break;
    case 2:
      text = `{"id":"call_1","type":"function","function":{"name":"${TOOL}","arguments":${JSON.stringify(text)}}}`;
      break;
    case 3:
      text = JSON.stringify(text);
      break;
    case 4:
      text = `\`\`\`json\n${text}\n\`\`\``;
      break;
    case 5:
      text = ` ${text}\n`;
      break;
    case 6:
      text = `[${text}]`;
      break;
    case 7: {
      const at = random.below(text.length + 1);
      text = text.slice(0, at) + text.slice(at + 1);
      break;
    }
    case 8:
      text = text.replace(/}$/, ',"__proto__":{"polluted":1}}');
      break;
    default:
  }
  return text;
}
