import { patternExample } from '../rules/pattern-example';
import type { ParamSchema } from '../types/schema';
import { DATE_DESCRIPTION, DATE_EXAMPLE } from '../rules/date';
import { DATE_TIME_DESCRIPTION, DATE_TIME_EXAMPLE } from '../rules/date-time';
import { formatRule } from '../rules/format';
import type { ValidationIssue } from '../types/execution';

/**
 * Every model-facing sentence the pipeline writes. Each says what was wrong, what was expected,
 * what was received, and what to send instead. No stack traces, paths or secrets ever go in here.
 */
const MAX_RECEIVED_LENGTH = 80;

/** A short, safe rendering of a received value. */
export function describeReceived(value: unknown): string {
  let text: string;
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') text = JSON.stringify(value);
  else if (typeof value === 'number' || typeof value === 'boolean' || value === null) text = String(value);
  else if (Array.isArray(value)) text = `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  else if (typeof value === 'object') {
    const keys = Object.keys(value);
    text =
      keys.length === 0
        ? 'an empty object'
        : `an object with keys ${keys.slice(0, 5).join(', ')}${keys.length > 5 ? ', ...' : ''}`;
  } else text = typeof value;
  return text.length > MAX_RECEIVED_LENGTH ? `${text.slice(0, MAX_RECEIVED_LENGTH - 3)}...` : text;
}

/** Most values (enum values, property names) a message lists, and the longest one it shows. */
export const MAX_LISTED_VALUES = 20;
const MAX_LISTED_VALUE_LENGTH = 60;

/** `a, b, c`, or past `MAX_LISTED_VALUES` the first ones and how many more (an imported enum of 9,990 values stays one line). */
function listForMessage(items: readonly string[]): string {
  if (items.length <= MAX_LISTED_VALUES) return items.join(', ');
  return `${items.slice(0, MAX_LISTED_VALUES).join(', ')} (and ${items.length - MAX_LISTED_VALUES} more)`;
}

function clip(text: string, length = MAX_RECEIVED_LENGTH): string {
  return text.length > length ? `${text.slice(0, length - 3)}...` : text;
}

function range(
  minimum: number | undefined,
  maximum: number | undefined,
  exclusiveMinimum?: number,
  exclusiveMaximum?: number,
): string {
  const parts: string[] = [];
  if (minimum !== undefined) parts.push(`>= ${minimum}`);
  if (exclusiveMinimum !== undefined) parts.push(`> ${exclusiveMinimum}`);
  if (maximum !== undefined) parts.push(`<= ${maximum}`);
  if (exclusiveMaximum !== undefined) parts.push(`< ${exclusiveMaximum}`);
  return parts.length > 0 ? ` ${parts.join(' and ')}` : '';
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** " with 2 to 6 items", " with at least 1 item", " of at most 80 characters". */
function countRange(minimum: number | undefined, maximum: number | undefined, noun: 'item' | 'character'): string {
  const joiner = noun === 'item' ? ' with' : ' of';
  if (minimum !== undefined && maximum !== undefined)
    return minimum === maximum
      ? `${joiner} exactly ${plural(minimum, noun)}`
      : `${joiner} ${minimum} to ${plural(maximum, noun)}`;
  if (minimum !== undefined) return `${joiner} at least ${plural(minimum, noun)}`;
  if (maximum !== undefined) return `${joiner} at most ${plural(maximum, noun)}`;
  return '';
}

/** What a schema accepts, in words. */
export function describeExpected(schema: ParamSchema): string {
  const nullable = schema.nullable ? ' (or null)' : '';
  if (schema.enum)
    return `one of ${listForMessage(schema.enum.map((value) => clip(JSON.stringify(value), MAX_LISTED_VALUE_LENGTH)))}${nullable}`;
  switch (schema.kind) {
    case 'string': {
      const lengths = countRange(schema.minLength, schema.maxLength, 'character');
      return `a string${lengths}${schema.format ? ` in ${schema.format} format` : ''}${schema.pattern ? ` matching /${schema.pattern}/` : ''}${nullable}`;
    }
    case 'int':
      return `an integer${range(schema.minimum, schema.maximum, schema.exclusiveMinimum, schema.exclusiveMaximum)}${nullable}`;
    case 'float':
      return `a number${range(schema.minimum, schema.maximum, schema.exclusiveMinimum, schema.exclusiveMaximum)}${nullable}`;
    case 'bool':
      return `a boolean (true or false)${nullable}`;
    case 'date':
      return `${DATE_DESCRIPTION}${nullable}`;
    case 'datetime':
      return `${DATE_TIME_DESCRIPTION}${nullable}`;
    case 'array': {
      const bounds = countRange(schema.minItems, schema.maxItems, 'item');
      return `an array${bounds} of ${describeExpected(schema.items)}${nullable}`;
    }
    case 'object':
      return schema.properties.length > 0
        ? `an object with ${listForMessage(schema.properties.filter((property) => !property.context).map((property) => clip(property.name, MAX_LISTED_VALUE_LENGTH)))}${nullable}`
        : `an object${nullable}`;
    case 'union':
      return schema.variants.map(describeExpected).join(' or ');
    case 'any':
      return 'any JSON value';
  }
}

/** A valid example value for a schema (from its examples, default or enum when it has them). */
export function exampleValue(schema: ParamSchema, depth = 0): unknown {
  if (schema.examples && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  switch (schema.kind) {
    case 'string':
      // A pattern's example matches it, or there is none (never one the pattern refuses).
      if (schema.pattern !== undefined) return patternExample(schema.pattern);
      return (schema.format === undefined ? undefined : formatRule(schema.format)?.example) ?? 'text';
    case 'int':
      return clampExample(1, schema.minimum, schema.maximum, schema.exclusiveMinimum, 1);
    case 'float':
      return clampExample(1.5, schema.minimum, schema.maximum, schema.exclusiveMinimum, 0.5);
    case 'bool':
      return true;
    case 'date':
      return DATE_EXAMPLE;
    case 'datetime':
      return DATE_TIME_EXAMPLE;
    case 'array': {
      if (depth > 3) return [];
      // No example of an item (a pattern none can be made for): no example of the array.
      const item = exampleValue(schema.items, depth + 1);
      return item === undefined ? undefined : Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => item);
    }
    case 'object': {
      if (depth > 3) return {};
      const example: Record<string, unknown> = {};
      for (const property of schema.properties) {
        if (!property.required || property.context) continue;
        // A property with no example (a pattern none can be made for) is left out rather than given a wrong one.
        const value = exampleValue(property.schema, depth + 1);
        if (value !== undefined) example[property.name] = value;
      }
      return example;
    }
    case 'union':
      return schema.variants[0] ? exampleValue(schema.variants[0], depth) : null;
    case 'any':
      return 'any value';
  }
}

function clampExample(value: number, minimum?: number, maximum?: number, exclusiveMinimum?: number, step = 1): number {
  let result = value;
  if (minimum !== undefined && result < minimum) result = minimum;
  if (exclusiveMinimum !== undefined && result <= exclusiveMinimum) result = exclusiveMinimum + step;
  if (maximum !== undefined && result > maximum) result = maximum;
  return result;
}

/** The built-in tool the relative-date hint names: the executor asks its registry whether it is registered. */
export const RELATIVE_DATE_RESOLVER = 'resolve_relative_date';

export const messages = {
  notAnObject: (received: string) =>
    `The arguments must be one JSON object of parameter names and values, but received ${received}. Send only the object, e.g. {"name": "value"}.`,
  notJsonStrict: (text: string) =>
    `The arguments are not valid JSON (received ${JSON.stringify(clip(text))}). Send one JSON object with double-quoted keys and strings.`,
  truncated: () => 'The arguments were cut off before the JSON object was closed; send a shorter call.',
  distinctObjects: (first: string, second: string, count: number) =>
    `The arguments contain ${count} different JSON objects (${clip(first, 60)} and ${clip(second, 60)}); send exactly one object per call, or make one call per object.`,
  unrepairable: (received: string) =>
    `The arguments could not be read as a JSON object (received ${received}). Send one JSON object with double-quoted keys and strings.`,
  objectInProse: (received: string) =>
    `The arguments must be only a JSON object, without surrounding text (received ${received}).`,
  argumentsTooLarge: (bytes: number) =>
    `The arguments are larger than ${bytes} bytes; send a smaller call (fewer or shorter values).`,
  unsafeInteger: (path: string) =>
    `${path === '' ? 'The arguments' : `"${path}"`} holds an integer beyond 2^53 - 1, which no JavaScript number holds exactly; send it as a string if it is an identifier, or send a smaller number.`,
  tooDeep: (depth: number) => `The arguments nest deeper than ${depth} levels; send a flatter object.`,
  tooManyItems: (path: string, limit: number, received: number) =>
    `"${path}" has ${received} items; at most ${limit} items are accepted in one array.`,
  unknownTool: (name: string, suggestions: readonly string[], available: number) =>
    suggestions.length > 0
      ? `There is no tool named "${clip(name, 60)}". Did you mean ${suggestions.map((suggestion) => `"${suggestion}"`).join(', ')}? Call one of the available tools by its exact name.`
      : `There is no tool named "${clip(name, 60)}" (${available} tools are available). Call one of the available tools by its exact name.`,
  permissionDenied: (tool: string, persona?: string) =>
    `The tool "${tool}" is not available${persona ? ` to ${persona}` : ''}. Do not call it again; use another tool or answer without it.`,
  invalidArguments: (tool: string, issues: readonly ValidationIssue[]) => {
    // One concatenation (the refused call's hot path): the first ten issues, one line each, then how many more.
    let text = `The arguments for "${tool}" are invalid:`;
    const shown = Math.min(issues.length, 10);
    for (let index = 0; index < shown; index++) text += `\n- ${issues[index]!.message}`;
    if (issues.length > 10) text += `\n- ... and ${issues.length - 10} more problems.`;
    else if (shown === 0) text += '\n'; // no lines: the empty list's line, as before
    return `${text}\nFix these arguments and call "${tool}" again.`;
  },
  relativeDateHint: (hasResolver: boolean) =>
    hasResolver
      ? ` Relative dates such as "tomorrow" are not accepted here: call ${RELATIVE_DATE_RESOLVER} with the phrase first, then use the date it returns.`
      : ' Relative dates such as "tomorrow" are not accepted: send the absolute date.',
  timeout: (tool: string, ms: number) =>
    `The tool "${tool}" did not finish within ${ms} ms. Try again later or with a smaller request.`,
  cancelled: (tool: string) => `The call to "${tool}" was cancelled.`,
  handlerFailed: (tool: string) =>
    `The tool "${tool}" failed while running. The arguments were valid; try again later or use another approach.`,
  serviceUnavailable: (tool: string) => `The tool "${tool}" could not reach a service it depends on. Try again later.`,
};

/** Builds one issue with the standard sentence. */
export function issue(
  path: string,
  rule: string,
  schema: ParamSchema | undefined,
  received: unknown,
  detail?: string,
): ValidationIssue {
  const parts = schema ? staticParts(schema) : NO_SCHEMA_PARTS;
  const expected = parts.expected;
  const receivedText = describeReceived(received);
  const example = parts.example;
  let message: string;
  if (detail !== undefined) {
    message =
      parts.exampleSuffix !== undefined && !detail.includes('Example:') && !detail.includes('e.g.')
        ? detail + parts.exampleSuffix
        : detail;
  } else {
    // The standard sentence. Neither marker can span a boundary between its parts (the quotes, spaces and comma around
    // them are not in either marker) except "e.g" at the end of the received text before the closing dot.
    message = `${path === '' ? 'The arguments' : `"${path}"`}${parts.mustBe}${receivedText}.`;
    if (
      parts.exampleSuffix !== undefined &&
      !parts.expectedHasMarker &&
      !hasMarker(path) &&
      !hasMarker(receivedText) &&
      !endsWithMarkerStart(receivedText)
    )
      message += parts.exampleSuffix;
  }
  return example !== undefined
    ? { path, rule, expected, received: receivedText, example, message }
    : { path, rule, expected, received: receivedText, message };
}

/**
 * Whether a text holds "Example:" or "e.g." (then no example is appended): one pass over the character codes, cheaper
 * than two `includes` on the short texts of an issue (a path, a rendered value).
 */
function hasMarker(text: string): boolean {
  for (let index = 3; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 58 /* : */) {
      if (index >= 7 && text.startsWith('Example', index - 7)) return true;
    } else if (
      code === 46 /* . */ &&
      text.charCodeAt(index - 1) === 103 /* g */ &&
      text.charCodeAt(index - 2) === 46 /* . */ &&
      text.charCodeAt(index - 3) === 101 /* e */
    )
      return true;
  }
  return false;
}

/** Whether a text ends with "e.g" (the sentence's closing dot then makes "e.g."). */
function endsWithMarkerStart(text: string): boolean {
  const length = text.length;
  return (
    length >= 3 &&
    text.charCodeAt(length - 1) === 103 /* g */ &&
    text.charCodeAt(length - 2) === 46 /* . */ &&
    text.charCodeAt(length - 3) === 101 /* e */
  );
}

/** The parts of an issue's message that depend on its schema node alone, computed on the node's first issue. */
interface StaticParts {
  readonly expected: string;
  readonly example: string | undefined;
  /** ` Example: ...` as the message appends it. */
  readonly exampleSuffix: string | undefined;
  /** ` must be <expected>, but received `: the middle of the standard sentence. */
  readonly mustBe: string;
  /** Whether `expected` holds "Example:" or "e.g." (then no example is appended). */
  readonly expectedHasMarker: boolean;
}

const NO_SCHEMA_PARTS: StaticParts = {
  expected: 'nothing',
  example: undefined,
  exampleSuffix: undefined,
  mustBe: ' must be nothing, but received ',
  expectedHasMarker: false,
};
const staticPartsBySchema = new WeakMap<ParamSchema, StaticParts>();

function staticParts(schema: ParamSchema): StaticParts {
  let parts = staticPartsBySchema.get(schema);
  if (parts === undefined) {
    const example = JSON.stringify(exampleValue(schema)) as string | undefined;
    const expected = describeExpected(schema);
    parts = {
      expected,
      example,
      exampleSuffix: example !== undefined ? ` Example: ${clip(example, 120)}.` : undefined,
      mustBe: ` must be ${expected}, but received `,
      expectedHasMarker: hasMarker(expected),
    };
    staticPartsBySchema.set(schema, parts);
  }
  return parts;
}
