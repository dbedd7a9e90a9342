/**
 * The realistic shapes (issue 26): `count` commands, each with parameter names of its own and a seeded mix of field
 * kinds (bounded strings, integers, numbers, booleans, enums, date-times, e-mail addresses, nested objects, arrays of
 * scalars and of objects), and a seeded stream of valid arguments per command that differ from call to call.
 *
 * A shape is plain data: every contender (toolwright class command and JSON-Schema tool, the hand-written check, ajv,
 * zod, class-transformer + class-validator) is built from it, so they all check the same thing. This module imports
 * nothing, so the startup measurement can load it without loading any validation library.
 */

export type ScalarSpec =
  | { readonly kind: 'string'; readonly minLength: number; readonly maxLength: number }
  | { readonly kind: 'int'; readonly min: number; readonly max: number }
  | { readonly kind: 'number'; readonly min: number }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  | { readonly kind: 'datetime' }
  | { readonly kind: 'email' };

export interface ObjectSpec {
  readonly kind: 'object';
  /** The nested DTO's class name (a class command needs one class per nested object). */
  readonly className: string;
  readonly fields: readonly FieldSpec[];
}

export interface ArraySpec {
  readonly kind: 'array';
  readonly items: ScalarSpec | ObjectSpec;
  readonly minItems: number;
  readonly maxItems: number;
}

export type ValueSpec = ScalarSpec | ObjectSpec | ArraySpec;

export interface FieldSpec {
  readonly name: string;
  readonly required: boolean;
  readonly value: ValueSpec;
}

export interface ShapeSpec {
  /** The tool name (`<verb>_<noun>_<index>`). */
  readonly name: string;
  readonly index: number;
  readonly description: string;
  readonly fields: readonly FieldSpec[];
}

/** mulberry32: a small, fast, seeded generator (the same shapes and arguments in every run and every process). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const VERBS = ['create', 'update', 'find', 'list', 'cancel', 'book', 'send', 'archive', 'approve', 'export'];
const NOUNS = ['invoice', 'order', 'ticket', 'meeting', 'customer', 'shipment', 'report', 'refund', 'task', 'lead'];
const WORDS = [
  'account',
  'amount',
  'budget',
  'channel',
  'comment',
  'country',
  'deadline',
  'discount',
  'owner',
  'label',
  'limit',
  'locale',
  'margin',
  'note',
  'offset',
  'origin',
  'payload',
  'priority',
  'quota',
  'reason',
  'region',
  'score',
  'source',
  'stage',
  'status',
  'subject',
  'summary',
  'target',
  'topic',
  'weight',
];
const ENUM_WORDS = ['low', 'normal', 'high', 'draft', 'open', 'closed', 'pending', 'urgent', 'eur', 'usd', 'gbp'];

const pick = <T>(random: () => number, values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
const between = (random: () => number, low: number, high: number) => low + Math.floor(random() * (high - low + 1));
const capitalized = (word: string) => word[0]!.toUpperCase() + word.slice(1);

function scalarSpec(random: () => number, allowed: readonly ScalarSpec['kind'][]): ScalarSpec {
  switch (pick(random, allowed)) {
    case 'string': {
      const minLength = between(random, 0, 2);
      return { kind: 'string', minLength, maxLength: minLength + between(random, 20, 200) };
    }
    case 'int': {
      const min = between(random, -10, 10);
      return { kind: 'int', min, max: min + between(random, 50, 10_000) };
    }
    case 'number':
      return { kind: 'number', min: between(random, -100, 0) };
    case 'boolean':
      return { kind: 'boolean' };
    case 'enum': {
      const start = between(random, 0, ENUM_WORDS.length - 4);
      return { kind: 'enum', values: ENUM_WORDS.slice(start, start + between(random, 2, 4)) };
    }
    case 'datetime':
      return { kind: 'datetime' };
    default:
      return { kind: 'email' };
  }
}

const TOP_LEVEL_SCALARS: readonly ScalarSpec['kind'][] = [
  'string',
  'string',
  'string',
  'int',
  'int',
  'number',
  'boolean',
  'enum',
  'enum',
  'datetime',
  'email',
];
const NESTED_SCALARS: readonly ScalarSpec['kind'][] = ['string', 'string', 'int', 'number', 'boolean', 'enum', 'email'];
const ARRAY_ITEMS: readonly ScalarSpec['kind'][] = ['string', 'int', 'datetime', 'email'];

/** Field names unique to the tool: a word, an index of the tool, and a position (`ownerName17b`). */
function fieldName(random: () => number, tool: number, position: number, used: Set<string>): string {
  for (;;) {
    const name = `${pick(random, WORDS)}${capitalized(pick(random, WORDS))}${tool}${String.fromCharCode(97 + position)}`;
    if (!used.has(name)) {
      used.add(name);
      return name;
    }
  }
}

function objectSpec(random: () => number, tool: number, className: string, used: Set<string>): ObjectSpec {
  const count = between(random, 2, 4);
  const fields: FieldSpec[] = [];
  for (let position = 0; position < count; position++) {
    fields.push({
      name: fieldName(random, tool, position, used),
      required: position === 0 || random() < 0.7,
      value: scalarSpec(random, NESTED_SCALARS),
    });
  }
  return { kind: 'object', className, fields };
}

/** The shape of command `index` (the same for a given index in every run). */
export function shapeSpec(index: number): ShapeSpec {
  const random = seededRandom(0x5eed0000 + index);
  const name = `${pick(random, VERBS)}_${pick(random, NOUNS)}_${index}`;
  const count = between(random, 4, 9);
  const used = new Set<string>();
  const fields: FieldSpec[] = [];
  let nested = 0;
  for (let position = 0; position < count; position++) {
    const roll = random();
    let value: ValueSpec;
    if (roll < 0.12) value = objectSpec(random, index, `Tool${index}Nested${nested++}`, used);
    else if (roll < 0.2)
      value = {
        kind: 'array',
        items: objectSpec(random, index, `Tool${index}Item${nested++}`, used),
        minItems: between(random, 0, 1),
        maxItems: between(random, 5, 50),
      };
    else if (roll < 0.3)
      value = {
        kind: 'array',
        items: scalarSpec(random, ARRAY_ITEMS),
        minItems: between(random, 0, 1),
        maxItems: between(random, 5, 50),
      };
    else value = scalarSpec(random, TOP_LEVEL_SCALARS);
    fields.push({ name: fieldName(random, index, position, used), required: position < 2 || random() < 0.6, value });
  }
  return { name, index, description: `Generated realistic command ${index}`, fields };
}

export function shapeSpecs(count: number, offset = 0): ShapeSpec[] {
  return Array.from({ length: count }, (_, n) => shapeSpec(n + offset));
}

const pad = (value: number) => String(value).padStart(2, '0');
const LETTERS = 'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-';

function scalarValue(random: () => number, spec: ScalarSpec): unknown {
  switch (spec.kind) {
    case 'string': {
      const length = between(random, Math.max(spec.minLength, 1), Math.min(spec.maxLength, 40));
      let text = '';
      for (let index = 0; index < length; index++) text += LETTERS[Math.floor(random() * LETTERS.length)]!;
      return text;
    }
    case 'int':
      return between(random, spec.min, Math.min(spec.max, spec.min + 5_000));
    case 'number':
      return Math.round((spec.min + random() * 1_000) * 100) / 100;
    case 'boolean':
      return random() < 0.5;
    case 'enum':
      return pick(random, spec.values);
    case 'datetime': {
      const offset = pick(random, ['Z', '+01:00', '-05:00', '+05:30', '+00:00']);
      return `20${between(random, 24, 29)}-${pad(between(random, 1, 12))}-${pad(between(random, 1, 28))}T${pad(between(random, 0, 23))}:${pad(between(random, 0, 59))}:${pad(between(random, 0, 59))}${offset}`;
    }
    default:
      return `${pick(random, ['ana', 'bo', 'chen', 'dana', 'eve', 'femi'])}.${between(random, 1, 9_999)}@${pick(random, ['example.com', 'mail.example.org', 'corp.example.net'])}`;
  }
}

function objectValue(random: () => number, fields: readonly FieldSpec[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    if (!field.required && random() < 0.35) continue;
    out[field.name] = value(random, field.value);
  }
  return out;
}

function value(random: () => number, spec: ValueSpec): unknown {
  if (spec.kind === 'object') return objectValue(random, spec.fields);
  if (spec.kind === 'array') {
    const length = between(random, Math.max(spec.minItems, 1), Math.min(spec.maxItems, 4));
    return Array.from({ length }, () =>
      spec.items.kind === 'object' ? objectValue(random, spec.items.fields) : scalarValue(random, spec.items),
    );
  }
  return scalarValue(random, spec);
}

/** `count` different valid argument texts for the shape (compact JSON, keys in declaration order, as providers send). */
export function argumentVariants(shape: ShapeSpec, count: number): string[] {
  const random = seededRandom(0xa7650000 + shape.index);
  return Array.from({ length: count }, () => JSON.stringify(objectValue(random, shape.fields)));
}

/**
 * An invalid argument text for the shape: a valid one whose first required field holds a value of no accepted kind
 * (an object where a scalar or an array is expected, a string where an object is). Every contender must refuse it.
 */
export function invalidArguments(shape: ShapeSpec): string {
  const valid = JSON.parse(argumentVariants(shape, 1)[0]!) as Record<string, unknown>;
  const first = shape.fields[0]!;
  valid[first.name] = first.value.kind === 'object' ? 'not an object' : { wrong: true };
  return JSON.stringify(valid);
}
