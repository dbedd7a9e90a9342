import type { ContentPart, ModelOutput, ResultTruncation } from '../types/content';
import { ToolContent } from '../types/content';
import type { ToolDefinition } from '../types/definition';
import type { ToolResult } from '../types/execution';
import { CHARS_PER_TOKEN_ESTIMATE, cutJson, CutCounts, cutText, formatCount, jsonLengthUpTo } from './result-budget';

/** Parameter names (lower case, without `_` and `-`) that ask a tool for the next part of a result. */
const CONTINUATION_PARAMETERS = new Set([
  'cursor',
  'nextcursor',
  'pagetoken',
  'nextpagetoken',
  'continuationtoken',
  'page',
  'offset',
  'after',
  'startafter',
]);

/** The longest JSON text of a number (`-1.7976931348623157e+308`), a boolean or `null`. */
const LONGEST_SCALAR_JSON = 24;

/** The most characters a note may take; a smaller budget gives the note a fifth of it. */
const NOTE_RESERVE_CHARS = 480;

/**
 * The model-facing view of a successful result (pipeline step 8, after the output-schema check): the tool's
 * `toModelOutput` view, the parts of a `ToolContent` value, or the value itself, cut to `budgetChars` characters of
 * text and JSON. `undefined` when the model reads the value as it is (no view, no parts, within the budget): most calls
 * cost one bounded size walk. A `toModelOutput` that throws throws here (the executor reports a HANDLER_ERROR).
 */
export function buildModelOutput(
  definition: ToolDefinition,
  callId: string,
  value: unknown,
  budgetChars: number,
): ModelOutput | undefined {
  const toModelOutput = definition.options.toModelOutput;
  // A number, boolean or nothing fits any budget of a few dozen characters: no view to build, nothing to measure.
  if (toModelOutput === undefined && budgetChars >= LONGEST_SCALAR_JSON && isShortScalar(value)) return undefined;
  const view = toModelOutput === undefined ? value : toModelOutput(value, { tool: definition.name, callId });
  if (toModelOutput === undefined && !ToolContent.isInstance(view)) {
    if (typeof view === 'string' ? view.length <= budgetChars : jsonLengthUpTo(view, budgetChars) <= budgetChars)
      return undefined;
  }
  const parts: readonly ContentPart[] = ToolContent.isInstance(view)
    ? view.content
    : typeof view === 'string'
      ? [{ type: 'text', text: view }]
      : [{ type: 'json', value: view }];
  const structuredContent = ToolContent.isInstance(view) ? view.structuredContent : undefined;
  return fitToBudget(parts, structuredContent, budgetChars, definition);
}

function isShortScalar(value: unknown): boolean {
  return value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean';
}

/** The parts as they are when their text and JSON fit `budgetChars`; else each cut to its share, and a note added. */
function fitToBudget(
  parts: readonly ContentPart[],
  structuredContent: Readonly<Record<string, unknown>> | undefined,
  budgetChars: number,
  definition: ToolDefinition,
): ModelOutput {
  // Sizes are counted up to ten budgets each: enough to share the budget in proportion without walking 5 MB twice.
  const measureLimit = Math.min(Number.MAX_SAFE_INTEGER, budgetChars * 10);
  const sizes = parts.map((part) => sizeOfPart(part, measureLimit));
  const total = sizes.reduce((sum, size) => sum + size, 0);
  const withStructured = structuredContent === undefined ? {} : { structuredContent };
  if (total <= budgetChars) return { content: parts, ...withStructured };

  const noteReserve = Math.min(NOTE_RESERVE_CHARS, Math.floor(budgetChars / 5));
  const available = Math.max(0, budgetChars - noteReserve);
  const counts = new CutCounts();
  let originalChars = 0;
  let exact = true;
  const content: ContentPart[] = parts.map((part, index) => {
    const size = sizes[index]!;
    const share = Math.floor((available * size) / total);
    if (size <= share) {
      originalChars += size;
      return part;
    }
    if (part.type === 'text' || (part.type === 'resource' && 'text' in part.resource)) {
      const text = part.type === 'text' ? part.text : (part.resource as { text: string }).text;
      originalChars += text.length;
      const kept = cutText(text, share);
      counts.stringsShortened++;
      counts.charsLeftOut += text.length - kept.length;
      return part.type === 'text'
        ? { type: 'text', text: kept }
        : { type: 'resource', resource: { ...part.resource, text: kept } };
    }
    // A JSON part (the only other kind that is counted).
    const json = (part as { value: unknown }).value;
    const whole = jsonLengthUpTo(json, budgetChars * 100);
    if (whole > budgetChars * 100) exact = false;
    originalChars += Math.min(whole, budgetChars * 100);
    const cut = cutJson(json, share);
    if (cut === undefined) {
      counts.charsLeftOut += whole;
      return { type: 'text', text: `[a JSON value of ${formatCount(whole)} characters left out]` };
    }
    counts.add(cut.counts);
    return { type: 'json', value: cut.value };
  });
  const sentWithoutNote = content.reduce((sum, part) => sum + sizeOfPart(part, Number.POSITIVE_INFINITY), 0);
  const note = truncationNote(definition, budgetChars, originalChars, exact, counts);
  content.push({ type: 'text', text: note });
  const truncation: ResultTruncation = {
    budgetChars,
    originalChars,
    sentChars: sentWithoutNote + note.length,
    arraysShortened: counts.arraysShortened,
    itemsLeftOut: counts.itemsLeftOut,
    stringsShortened: counts.stringsShortened,
    charsLeftOut: counts.charsLeftOut,
    keysLeftOut: counts.keysLeftOut,
    note,
  };
  return { content, ...withStructured, truncation };
}

/** The characters a part puts before the model: text and JSON count; images, audio, blobs and links do not. */
function sizeOfPart(part: ContentPart, limit: number): number {
  switch (part.type) {
    case 'text':
      return part.text.length;
    case 'json':
      return jsonLengthUpTo(part.value, limit);
    case 'resource':
      return 'text' in part.resource && typeof part.resource.text === 'string' ? part.resource.text.length : 0;
    default:
      return 0;
  }
}

/** The note the model reads after a cut view: what was left out and how to ask for the rest. */
function truncationNote(
  definition: ToolDefinition,
  budgetChars: number,
  originalChars: number,
  exact: boolean,
  counts: CutCounts,
): string {
  const left: string[] = [];
  if (counts.arraysShortened > 0)
    left.push(
      `${formatCount(counts.itemsLeftOut)} array items (from ${formatCount(counts.arraysShortened)} ${plural(counts.arraysShortened, 'array', 'arrays')})`,
    );
  if (counts.stringsShortened > 0)
    left.push(
      `${formatCount(counts.charsLeftOut)} characters (from ${formatCount(counts.stringsShortened)} ${plural(counts.stringsShortened, 'text', 'texts')})`,
    );
  if (counts.keysLeftOut > 0) left.push(`${formatCount(counts.keysLeftOut)} object keys`);
  const tokens = Math.round(budgetChars / CHARS_PER_TOKEN_ESTIMATE);
  const whole = `${exact ? '' : 'more than '}${formatCount(originalChars)} characters`;
  const continuation = continuationParameter(definition);
  const more =
    continuation === undefined
      ? `To see what was left out, call ${definition.name} again with narrower arguments.`
      : `To get the rest, call ${definition.name} again with its \`${continuation}\` parameter set to the next position.`;
  return (
    `[This result was cut to fit the tool-result budget of ${formatCount(budgetChars)} characters (about ` +
    `${formatCount(tokens)} tokens); the whole result is ${whole}. Left out: ${left.length > 0 ? left.join(', ') : 'the end of the result'}. ` +
    `Each place that was cut is marked with "…[". ${more}]`
  );
}

function plural(count: number, one: string, many: string): string {
  return count === 1 ? one : many;
}

/** The first model-visible parameter whose name asks for the next part of a result (`cursor`, `page`, `offset`, ...). */
export function continuationParameter(definition: ToolDefinition): string | undefined {
  for (const property of definition.parameters.properties) {
    if (property.context !== undefined) continue;
    if (CONTINUATION_PARAMETERS.has(property.name.toLowerCase().replace(/[_-]/g, ''))) return property.name;
  }
  return undefined;
}

/**
 * What the model reads of a result, as content parts: `modelOutput.content` when the result has a view; else the
 * value (a string as text, a `ToolContent` as its parts, anything else as JSON). Errors are not content: providers
 * render them through their own error channel.
 */
export function modelContent(result: Extract<ToolResult, { ok: true }>): readonly ContentPart[] {
  if (result.modelOutput !== undefined) return result.modelOutput.content;
  const value = result.value;
  if (typeof value === 'string') return [{ type: 'text', text: value }];
  if (ToolContent.isInstance(value)) return value.content;
  return [{ type: 'json', value }];
}

/** JSON text of any value; what JSON cannot hold (bigint, cycles) is rendered with String(), so it never throws. */
export function jsonText(value: unknown): string {
  try {
    const text = JSON.stringify(value === undefined ? null : value, (_key, item: unknown) =>
      typeof item === 'bigint' ? item.toString() : item,
    );
    return text ?? 'null';
  } catch {
    return JSON.stringify(String(value));
  }
}

/** Whether every part is text or JSON (then a channel that takes one text gets exactly the text it got before parts). */
export function isTextOnly(parts: readonly ContentPart[]): boolean {
  return parts.every((part) => part.type === 'text' || part.type === 'json');
}

/** The note that names a part a text channel cannot carry (`[image: image/png]`); a text resource is its text. */
export function partNote(part: ContentPart): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'json':
      return jsonText(part.value);
    case 'image':
      return `[image: ${part.mimeType ?? ('url' in part ? part.url : 'image')}]`;
    case 'audio':
      return `[audio: ${part.mimeType}]`;
    case 'resource':
      return 'text' in part.resource ? part.resource.text : `[file: ${part.resource.uri}]`;
    case 'resource_link':
      return `[file link: ${part.name} (${part.uri})]`;
  }
}

/**
 * Parts as one text, for a channel that takes only text: text parts as they are, JSON parts as JSON text, blank-line
 * separated; any other part as `noteFor` gives it (by default its `partNote`; a provider's lowering names where the part
 * itself goes).
 */
export function partsText(
  parts: readonly ContentPart[],
  noteFor: (part: ContentPart, index: number) => string = partNote,
): string {
  return parts
    .map((part, index) => {
      if (part.type === 'text') return part.text;
      if (part.type === 'json') return jsonText(part.value);
      return noteFor(part, index);
    })
    .join('\n\n');
}

/**
 * What the model reads of a successful result, as one text (the tool loop's tool message, channels that take only
 * text): `partsText` of its parts; a provider's own lowering sends an image, audio or file part (docs/results.md).
 */
export function modelText(result: Extract<ToolResult, { ok: true }>): string {
  return partsText(modelContent(result));
}
