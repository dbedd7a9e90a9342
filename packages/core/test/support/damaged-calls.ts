import { seededRandom, type SeededRandom } from './seeded-random';

/**
 * Valid tool calls damaged by syntax-only edits, one case per seed (the same case for the same seed, on every machine):
 * the inputs of the reading search's property test, labelled offline by the brute-force oracle in
 * `reading-oracle.ts`. Texts are at most {@link MAX_CASE_LENGTH} characters.
 */

export const MAX_CASE_LENGTH = 200;

/** The tools the cases call: JSON Schemas the oracle checks with ajv and the executor registers. */
export const DAMAGE_TOOLS = {
  search: {
    type: 'object',
    properties: {
      query: { type: 'string' },
      limit: { type: 'integer' },
      tags: { type: 'array', items: { type: 'string' } },
      options: {
        type: 'object',
        properties: { exact: { type: 'boolean' }, depth: { type: 'integer' } },
        additionalProperties: false,
      },
    },
    required: ['query'],
    additionalProperties: false,
  },
  get_weather: {
    type: 'object',
    properties: {
      city: { type: 'string' },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      days: { type: 'integer' },
      hourly: { type: 'boolean' },
    },
    required: ['city'],
    additionalProperties: false,
  },
  get_current_loc: {
    type: 'object',
    properties: {
      coordinate_format: { type: 'string', enum: ['DMS', 'DD'] },
      include_altitude: { type: 'boolean' },
      timeout: { type: 'integer' },
    },
    additionalProperties: false,
  },
  tag_items: {
    type: 'object',
    properties: {
      ids: { type: 'array', items: { type: 'integer' } },
      label: { type: 'string' },
      meta: {
        type: 'object',
        properties: { owner: { type: 'string' }, pinned: { type: 'boolean' } },
        additionalProperties: false,
      },
    },
    required: ['ids'],
    additionalProperties: false,
  },
} as const;

export type DamageTool = keyof typeof DAMAGE_TOOLS;

/** The damage classes: what was done to the valid text. */
export const DAMAGE_CLASSES = [
  'missing-comma',
  'missing-colon',
  'missing-closing-quote',
  'missing-opening-quote',
  'missing-bracket',
  'stray-character',
  'mismatched-bracket',
  'swapped-brackets',
  'literal-newlines',
  'envelope-with-siblings',
] as const;
export type DamageClass = (typeof DAMAGE_CLASSES)[number];

export interface DamagedCall {
  readonly seed: number;
  readonly damage: DamageClass;
  readonly tool: DamageTool;
  /** The valid arguments before the damage. */
  readonly original: Record<string, unknown>;
  readonly text: string;
}

const WORDS = ['cats', 'new york', 'a, b', 'x:y', 'ok', 'Paris', 'he said hi', 'list [1]', '{draft}', 'tea'];

function argumentsFor(tool: DamageTool, random: SeededRandom): Record<string, unknown> {
  const word = () => random.pick(WORDS);
  const args: Record<string, unknown> = {};
  switch (tool) {
    case 'search':
      args['query'] = word();
      if (random.chance(0.6)) args['limit'] = random.below(50);
      if (random.chance(0.6)) args['tags'] = Array.from({ length: 1 + random.below(3) }, word);
      if (random.chance(0.5))
        args['options'] = { exact: random.chance(0.5), ...(random.chance(0.5) ? { depth: random.below(9) } : {}) };
      break;
    case 'get_weather':
      args['city'] = word();
      if (random.chance(0.6)) args['unit'] = random.pick(['celsius', 'fahrenheit']);
      if (random.chance(0.5)) args['days'] = 1 + random.below(14);
      if (random.chance(0.5)) args['hourly'] = random.chance(0.5);
      break;
    case 'get_current_loc':
      args['coordinate_format'] = random.pick(['DMS', 'DD']);
      if (random.chance(0.7)) args['include_altitude'] = random.chance(0.5);
      if (random.chance(0.7)) args['timeout'] = random.below(120);
      break;
    case 'tag_items':
      args['ids'] = Array.from({ length: 1 + random.below(4) }, () => random.below(1000));
      if (random.chance(0.6)) args['label'] = word();
      if (random.chance(0.5))
        args['meta'] = { owner: word(), ...(random.chance(0.5) ? { pinned: random.chance(0.5) } : {}) };
      break;
  }
  // Sometimes the container last, so that two closing brackets meet (`]}`, `}}`).
  return args;
}

/** The text of the arguments, compact or spaced as models write them. */
function textOf(args: unknown, random: SeededRandom): string {
  const compact = JSON.stringify(args);
  return random.chance(0.5) ? compact : JSON.stringify(args, null, 1).replace(/\n\s*/g, ' ');
}

/** Where each kind of character is in a JSON text, outside strings or as a string's quotes. */
function structure(text: string) {
  const commas: number[] = [];
  const colons: number[] = [];
  const openingQuotes: number[] = [];
  const closingQuotes: number[] = [];
  const closers: number[] = [];
  const boundaries: number[] = [];
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const character = text[at]!;
    if (inString) {
      if (character === '\\') at++;
      else if (character === '"') {
        inString = false;
        closingQuotes.push(at);
      }
      continue;
    }
    if (character === '"') {
      inString = true;
      openingQuotes.push(at);
      boundaries.push(at);
    } else if (character === ',') {
      commas.push(at);
      boundaries.push(at + 1);
    } else if (character === ':') colons.push(at);
    else if (character === '}' || character === ']') {
      closers.push(at);
      boundaries.push(at);
    } else if (character === '{' || character === '[') boundaries.push(at + 1);
  }
  return { commas, colons, openingQuotes, closingQuotes, closers, boundaries };
}

function remove(text: string, at: number): string {
  return text.slice(0, at) + text.slice(at + 1);
}
function insert(text: string, at: number, inserted: string): string {
  return text.slice(0, at) + inserted + text.slice(at);
}
function replace(text: string, at: number, replacement: string): string {
  return text.slice(0, at) + replacement + text.slice(at + 1);
}
/** Positions before the last character (damage at the very end is a cut-off text, a class of its own). */
function inner(positions: readonly number[], text: string): number[] {
  return positions.filter((at) => at < text.trimEnd().length - 1);
}

/** The damaged text of a class, or undefined when this valid text has no place for it. */
function damage(
  kind: DamageClass,
  text: string,
  random: SeededRandom,
  tool: DamageTool,
  args: Record<string, unknown>,
): string | undefined {
  const where = structure(text);
  const at = (positions: readonly number[]) => (positions.length === 0 ? undefined : random.pick(positions));
  switch (kind) {
    case 'missing-comma': {
      const position = at(where.commas);
      return position === undefined ? undefined : remove(text, position);
    }
    case 'missing-colon': {
      const position = at(where.colons);
      return position === undefined ? undefined : remove(text, position);
    }
    case 'missing-closing-quote': {
      const position = at(inner(where.closingQuotes, text));
      return position === undefined ? undefined : remove(text, position);
    }
    case 'missing-opening-quote': {
      const position = at(where.openingQuotes);
      return position === undefined ? undefined : remove(text, position);
    }
    case 'missing-bracket': {
      const position = at(inner(where.closers, text));
      return position === undefined ? undefined : remove(text, position);
    }
    case 'stray-character': {
      const position = at(inner(where.boundaries, text));
      return position === undefined
        ? undefined
        : insert(text, position, random.pick(['{', '}', '[', ']', ':', ',', '"']));
    }
    case 'mismatched-bracket': {
      const position = at(inner(where.closers, text));
      if (position === undefined) return undefined;
      return replace(text, position, text[position] === '}' ? ']' : '}');
    }
    case 'swapped-brackets': {
      const pairs = where.closers.filter(
        (position) => where.closers.includes(position + 1) && text[position] !== text[position + 1],
      );
      const position = at(pairs);
      if (position === undefined) return undefined;
      return text.slice(0, position) + text[position + 1]! + text[position]! + text.slice(position + 2);
    }
    case 'literal-newlines': {
      const places = where.boundaries.filter((position) => position > 0);
      if (places.length === 0) return undefined;
      let damaged = text;
      const chosen = [...new Set(Array.from({ length: 1 + random.below(3) }, () => random.pick(places)))].sort(
        (a, b) => b - a,
      );
      for (const position of chosen) damaged = insert(damaged, position, random.pick(['\\n', '\\n  ', '\\t']));
      return damaged;
    }
    case 'envelope-with-siblings': {
      const keys = Object.keys(args);
      if (keys.length < 2) return undefined;
      const inside = keys.filter((_, index) => index > 0 && random.chance(0.6));
      if (inside.length === 0) inside.push(keys[keys.length - 1]!);
      const outer: Record<string, unknown> = {};
      const envelope: Record<string, unknown> = {};
      for (const key of keys) (inside.includes(key) ? envelope : outer)[key] = args[key];
      const word = random.pick(['arguments', 'parameters', 'args', 'input', 'params']);
      const wrapped = random.chance(0.5) ? { name: tool, ...outer, [word]: envelope } : { ...outer, [word]: envelope };
      return textOf(wrapped, random);
    }
  }
}

/**
 * How many of every 98 seeds each class gets. The two classes whose readings are two edits away cost the brute-force
 * oracle about a hundred times more per case (every pair of edits), so they get fewer seeds: about a thousand each in
 * 100,000.
 */
const CLASS_SHARES: Readonly<Record<DamageClass, number>> = {
  'missing-comma': 12,
  'missing-colon': 12,
  'missing-closing-quote': 12,
  'missing-opening-quote': 12,
  'missing-bracket': 1,
  'stray-character': 12,
  'mismatched-bracket': 12,
  'swapped-brackets': 1,
  'literal-newlines': 12,
  'envelope-with-siblings': 12,
};
const CLASS_OF_SLOT: readonly DamageClass[] = DAMAGE_CLASSES.flatMap((kind) =>
  Array.from({ length: CLASS_SHARES[kind] }, () => kind),
);

/** The case of a seed: its class from `seed % 98` (see the shares), the rest drawn from the seed. */
export function damagedCall(seed: number): DamagedCall {
  const damageKind = CLASS_OF_SLOT[seed % CLASS_OF_SLOT.length]!;
  const random = seededRandom(seed * 7919 + 17);
  const tools = Object.keys(DAMAGE_TOOLS) as DamageTool[];
  for (let attempt = 0; ; attempt++) {
    const tool = random.pick(tools);
    const original = argumentsFor(tool, random);
    const valid = textOf(original, random);
    if (valid.length > MAX_CASE_LENGTH - 8) continue;
    const text = damage(damageKind, valid, random, tool, original);
    if (text !== undefined && text.length <= MAX_CASE_LENGTH && text !== valid)
      return { seed, damage: damageKind, tool, original, text };
    if (attempt > 1000) throw new Error(`no ${damageKind} case for seed ${seed}`);
  }
}
