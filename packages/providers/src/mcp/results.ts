/**
 * mcp: results back.
 * The wire format is summarized in `./index.ts` (provider-formats.md §9).
 */
import type { ContentPart, ToolResult } from '@toolwright/core';
import { ToolContent } from '@toolwright/core';
import { successParts, textOfPart } from '../shared/content';
import { isPlainObject, type JsonObject } from '../shared/json-schema';
import { errorMessageText, successText, toJsonValue } from '../shared/results';

/** An MCP content block (`ContentBlock`): text, image, audio, embedded resource or resource link. */
export type McpContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | {
      type: 'resource';
      resource: { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string };
    }
  | { type: 'resource_link'; uri: string; name: string; title?: string; description?: string; mimeType?: string };

/** `CallToolResult`. */
export interface McpCallToolResult {
  [key: string]: unknown;
  content: McpContentBlock[];
  structuredContent?: JsonObject;
  isError?: boolean;
}

/** The default bound of `structuredContent` sent whole for a tool with an output schema: 1,000,000 characters. */
export const MCP_MAX_STRUCTURED_CONTENT_CHARS = 1_000_000;

export interface McpResultOptions {
  /**
   * `explicit` (default): a success carries `isError: false`; `omitted`: only errors carry the flag (the protocol's
   * default is false, so both mean the same to a client; `serveMcp` sends the shorter form).
   */
  readonly successFlag?: 'explicit' | 'omitted';
  /**
   * Whether the tool declares an output schema (MCP `outputSchema`): then `structuredContent` is required, so a result
   * cut to the budget still sends it whole (a cut shape would fail the schema), up to `maxStructuredContentChars`.
   * Without one, a cut result leaves `structuredContent` out and says so.
   */
  readonly outputSchema?: boolean;
  /** The bound of a whole `structuredContent` (default 1,000,000 characters); a larger one fails the call. */
  readonly maxStructuredContentChars?: number;
}

/**
 * The text of a successful value: a string as is, nothing (`undefined`) as empty text, a bigint as its digits, any
 * other value as JSON (a bigint inside it as a string of digits, so no digit is lost; a value JSON cannot hold, such
 * as a cycle, as its String() form).
 */
export function mcpValueText(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'bigint') return value.toString();
  return successText(value);
}

/**
 * A result as `CallToolResult`. The content is the model's view (the value, its `toModelOutput` view, or the view cut
 * to the result budget): text and JSON parts as text blocks, images, audio and resources as MCP's own blocks (an image
 * URL as a resource link). `structuredContent` is the handler's whole value when it is an object (the same JSON, per
 * the spec's backwards-compatibility rule), or the one a `ToolContent` carries; when the view was cut, it is sent whole
 * only for a tool with an output schema (see `outputSchema`), else left out with a note. An error is `isError: true`
 * with its model-facing message, and the closest tool names when the message does not list them already (tool errors,
 * including invalid arguments, go to the model this way; protocol errors such as an unknown tool are the server's
 * JSON-RPC errors). This is the one MCP mapping: `@toolwright/mcp`'s server sends exactly this.
 */
export function toToolResultMessage(result: ToolResult, options: McpResultOptions = {}): McpCallToolResult {
  if (!result.ok) return { content: [{ type: 'text', text: errorMessageText(result.error) }], isError: true };
  const value = result.value;
  const viewed = result.modelOutput !== undefined || ToolContent.isInstance(value);
  const content: McpContentBlock[] = viewed
    ? successParts(result).map(toContentBlock)
    : [{ type: 'text', text: mcpValueText(value) }];
  const output: McpCallToolResult = { content };
  const structured = ToolContent.isInstance(value)
    ? value.structuredContent
    : value === undefined
      ? undefined
      : toJsonValue(value);
  if (isPlainObject(structured)) {
    const cut = result.modelOutput?.truncation !== undefined;
    if (!cut || options.outputSchema === true) {
      const json = structured as JsonObject;
      const bound = options.maxStructuredContentChars ?? MCP_MAX_STRUCTURED_CONTENT_CHARS;
      if (cut && JSON.stringify(json).length > bound) {
        return {
          content: [
            {
              type: 'text',
              text: `The result of ${result.tool} is too large to send: its structured content is over ${bound} characters. Ask for less (a narrower query or a page of the result).`,
            },
          ],
          isError: true,
        };
      }
      output.structuredContent = json;
    } else {
      content.push({
        type: 'text',
        text: '[The structured content of this result was left out too: it is over the budget.]',
      });
    }
  }
  if ((options.successFlag ?? 'explicit') === 'explicit') output.isError = false;
  return output;
}

/** A content part as an MCP block. */
export function toContentBlock(part: ContentPart): McpContentBlock {
  switch (part.type) {
    case 'text':
    case 'json':
      return { type: 'text', text: textOfPart(part) };
    case 'image':
      return 'data' in part
        ? { type: 'image', data: part.data, mimeType: part.mimeType }
        : {
            type: 'resource_link',
            uri: part.url,
            name: part.url.split('/').pop() || 'image',
            ...(part.mimeType !== undefined ? { mimeType: part.mimeType } : {}),
          };
    default:
      return part;
  }
}
