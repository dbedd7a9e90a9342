/**
 * When a provider cannot take a JSON Schema keyword, the lowering moves it into the node's description, so the
 * model still reads the rule (`1-50`, `default 10`) even though the provider will not enforce it. The note is one
 * machine-readable suffix, `(JSON Schema: {"minimum":1,"maximum":50})`, so `fromProviderTool` can move the
 * keywords back: the lowering is reversible.
 *
 * OpenAI strict mode also makes every optional property required and nullable; a marker sentence on the property
 * records which ones were optional, for the model ("send null to omit it") and for the reverse adapter.
 */
import { isPlainObject, type JsonSchema } from './json-schema';

const NOTE_PREFIX = '(JSON Schema: ';
const NOTE_PATTERN = /(?:^|\s)\(JSON Schema: (\{.*\})\)$/s;

/** On an optional property that strict mode made nullable (null was not a value before). */
export const OPTIONAL_NULL_MARKER = 'Optional: send null to omit it.';
/** On an optional property that already accepted null. */
export const OPTIONAL_NULLABLE_MARKER = 'Optional: null also means omitted.';

/**
 * Joins description parts with one space, skipping empty ones. Parts are not trimmed: a description's own
 * whitespace survives, so taking the suffix off again gives back exactly the original text.
 */
export function joinDescription(...parts: ReadonlyArray<string | undefined>): string {
  return parts.filter((part): part is string => part !== undefined && part !== '').join(' ');
}

/**
 * Moves `keywords` of `schema` into its description note (merging with a note already there) and deletes them
 * from the node. Returns the names that were moved.
 */
export function moveKeywordsToNote(schema: JsonSchema, keywords: Iterable<string>): string[] {
  const moved: Record<string, unknown> = {};
  for (const keyword of keywords) {
    if (keyword in schema && schema[keyword] !== undefined) {
      moved[keyword] = schema[keyword];
      delete schema[keyword];
    }
  }
  const names = Object.keys(moved);
  if (names.length > 0) addToNote(schema, moved);
  return names;
}

/** Adds keyword values to the node's note (later values win). */
export function addToNote(schema: JsonSchema, values: Record<string, unknown>): void {
  const current = typeof schema['description'] === 'string' ? schema['description'] : undefined;
  const { text, note } = splitNote(current);
  const merged = { ...note, ...values };
  schema['description'] = joinDescription(text, `${NOTE_PREFIX}${JSON.stringify(merged)})`);
}

/** Splits a description into its text and its note (an empty note when there is none or it is not ours). */
export function splitNote(description: string | undefined): {
  text: string | undefined;
  note: Record<string, unknown>;
} {
  if (description === undefined) return { text: undefined, note: {} };
  const match = NOTE_PATTERN.exec(description);
  if (!match || match[1] === undefined) return { text: description, note: {} };
  try {
    const parsed: unknown = JSON.parse(match[1]);
    if (!isPlainObject(parsed)) return { text: description, note: {} };
    // The match starts at the one separator before the note (or at the start): everything before it is the text.
    const text = description.slice(0, match.index);
    return { text: text === '' ? undefined : text, note: parsed };
  } catch {
    return { text: description, note: {} };
  }
}

/** Takes a marker sentence off the end of a description. */
export function takeMarker(
  description: string | undefined,
  marker: string,
): { text: string | undefined; found: boolean } {
  if (description === undefined) return { text: undefined, found: false };
  if (description === marker) return { text: undefined, found: true };
  if (description.endsWith(` ${marker}`)) return { text: description.slice(0, -marker.length - 1), found: true };
  return { text: description, found: false };
}

/** Writes a description back, deleting the keyword when it is empty. */
export function setDescription(schema: JsonSchema, description: string | undefined): void {
  if (description === undefined || description === '') delete schema['description'];
  else schema['description'] = description;
}
