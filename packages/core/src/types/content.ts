/**
 * The content parts of a tool result: what a handler (or a `toModelOutput` view) can give the model besides one JSON
 * value. The shapes are MCP's content blocks (text, image, audio, embedded resource, resource link) plus a `json` part;
 * each provider adapter lowers them to its own tool-result form (docs/results.md has the table).
 */

/** Text the model reads as it is. */
export interface TextPart {
  readonly type: 'text';
  readonly text: string;
}

/** A JSON value: rendered as JSON text, or as a provider's JSON block where it has one (Bedrock `json`). */
export interface JsonPart {
  readonly type: 'json';
  readonly value: unknown;
}

/** An image given as its bytes, base64-encoded (no `data:` prefix), with its media type (`image/png`). */
export interface ImageDataPart {
  readonly type: 'image';
  /** The image bytes in base64 (standard alphabet, no `data:` prefix). */
  readonly data: string;
  readonly mimeType: string;
}

/** An image the provider fetches itself (`https:` URL); providers that cannot fetch URLs refuse it. */
export interface ImageUrlPart {
  readonly type: 'image';
  readonly url: string;
  readonly mimeType?: string;
}

export type ImagePart = ImageDataPart | ImageUrlPart;

/** Audio bytes in base64, with the media type (MCP `audio`). */
export interface AudioPart {
  readonly type: 'audio';
  readonly data: string;
  readonly mimeType: string;
}

/** A file's contents (MCP embedded resource): `text`, or `blob` (base64 bytes), with its URI and media type. */
export interface ResourcePart {
  readonly type: 'resource';
  readonly resource:
    | { readonly uri: string; readonly mimeType?: string; readonly text: string }
    | { readonly uri: string; readonly mimeType?: string; readonly blob: string };
}

/** A link to a file the client can read (MCP `resource_link`); the model sees its name, URI and description. */
export interface ResourceLinkPart {
  readonly type: 'resource_link';
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
}

/** One part of a tool result's content. */
export type ContentPart = TextPart | JsonPart | ImagePart | AudioPart | ResourcePart | ResourceLinkPart;

const TOOL_CONTENT_BRAND = Symbol.for('toolwright.content');

/**
 * A tool value made of content parts: a handler returns one to give the model an image, a file or several parts
 * (`new ToolContent([{ type: 'text', text: 'chart' }, { type: 'image', data, mimeType: 'image/png' }])`); the MCP
 * client returns one for a remote result that is not all text. `structuredContent` (an object) goes beside the parts
 * where a protocol has a place for it (MCP `structuredContent`). Serializes as `{ content, structuredContent? }`.
 */
export class ToolContent {
  private readonly [TOOL_CONTENT_BRAND] = true;

  constructor(
    readonly content: readonly ContentPart[],
    /** Sent as `structuredContent` (an object), beside the parts. */
    readonly structuredContent?: Readonly<Record<string, unknown>>,
  ) {}

  /** Brand check that survives two installed copies of the package. */
  static isInstance(value: unknown): value is ToolContent {
    return (
      typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL_CONTENT_BRAND] === true
    );
  }

  toJSON(): { content: readonly ContentPart[]; structuredContent?: Readonly<Record<string, unknown>> } {
    return {
      content: this.content,
      ...(this.structuredContent !== undefined ? { structuredContent: this.structuredContent } : {}),
    };
  }
}

/** How a result was cut to fit its budget: on `ModelOutput.truncation`, in the log and on the span. */
export interface ResultTruncation {
  /** The budget, in characters of text and JSON (images and files are bounded by each provider's own limits). */
  readonly budgetChars: number;
  /** The characters of the whole view (its text and JSON), before the cut. */
  readonly originalChars: number;
  /** The characters the model receives (the note included). */
  readonly sentChars: number;
  /** Arrays shortened, and how many items they left out in all. */
  readonly arraysShortened: number;
  readonly itemsLeftOut: number;
  /** Strings (and text parts) shortened, and how many characters they left out in all. */
  readonly stringsShortened: number;
  readonly charsLeftOut: number;
  /** Object keys left out (an object with more keys than the budget holds keeps its first ones). */
  readonly keysLeftOut: number;
  /** Whether `structuredContent` was left out of an MCP result (see docs/results.md). */
  readonly structuredContentLeftOut?: boolean;
  /** The note the model reads: what was cut and, when the tool declares a cursor or page parameter, how to get the rest. */
  readonly note: string;
}

/**
 * What the model reads of a successful result, when that is not the handler's value as it is: the `toModelOutput`
 * view, the parts of a `ToolContent` value, or a view cut to the result budget. Providers lower `content`.
 */
export interface ModelOutput {
  readonly content: readonly ContentPart[];
  /** The object MCP sends as `structuredContent` (the handler's value, or the one a `ToolContent` carries). */
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  /** Set when the view was cut to the budget. */
  readonly truncation?: ResultTruncation;
}

/**
 * What a `toModelOutput` function returns: a string (text), a `ToolContent` (parts), or any other value (sent as
 * JSON).
 */
export type ModelOutputValue = unknown;

/** What a `toModelOutput` function receives besides the value. */
export interface ModelOutputContext {
  readonly tool: string;
  readonly callId: string;
}

/**
 * Maps the handler's value to what the model reads; `ToolResult.value` stays the handler's value. Runs after the
 * output-schema check, before the result budget.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- public default: a view typed with its own value must stay assignable (parameters are contravariant)
export type ToModelOutput<R = any> = (value: R, context: ModelOutputContext) => ModelOutputValue;
