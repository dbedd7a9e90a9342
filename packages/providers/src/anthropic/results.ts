/**
 * anthropic: results back.
 * The wire format is summarized in `./index.ts` (provider-formats.md §3).
 */
import type { ContentPart, ToolResult } from '@toolwright/core';
import { ANTHROPIC_CALL_ID_PROFILE, CallIdCodec } from '../shared/call-ids';
import {
  imageWithinLimit,
  isTextOnly,
  leftOutNote,
  partsAsText,
  successParts,
  textOfPart,
  type ImageResultOptions,
} from '../shared/content';
import { errorMessageText } from '../shared/results';

/** The blocks a `tool_result` may hold that toolwright sends: text, image and document (`ToolResultBlockParam`). */
export type AnthropicToolResultContent =
  | { type: 'text'; text: string }
  | {
      type: 'image';
      source: { type: 'base64'; media_type: AnthropicImageMediaType; data: string } | { type: 'url'; url: string };
    }
  | {
      type: 'document';
      source:
        | { type: 'base64'; media_type: 'application/pdf'; data: string }
        | { type: 'text'; media_type: 'text/plain'; data: string };
      title?: string;
    };

/** The image media types Anthropic takes (`Base64ImageSource`). */
export type AnthropicImageMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
const IMAGE_MEDIA_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** `ToolResultBlockParam`. */
export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string | AnthropicToolResultContent[];
  is_error?: boolean;
}

/** The `user` message that carries tool results (`MessageParam`). */
export interface AnthropicToolResultMessage {
  role: 'user';
  content: AnthropicToolResultBlock[];
}

export interface AnthropicResultOptions extends ImageResultOptions {
  /** Rewrites ids that do not match `^[a-zA-Z0-9_-]+$` and remembers them (pass the same codec to parse). */
  readonly callIds?: CallIdCodec;
}

/** Anthropic's limit for one image (5 MB, the API's). */
export const ANTHROPIC_MAX_IMAGE_BYTES = 5 * 1024 * 1024;

const defaultCallIds = (): CallIdCodec => new CallIdCodec(ANTHROPIC_CALL_ID_PROFILE);

/**
 * A result as a `tool_result` block: text and JSON as one text (as without content parts); with images or files, a
 * block list: `text`, `image` (base64 or URL source) and `document` (a PDF's bytes, or a text file). Audio and other
 * binary files are left out with a note. Errors as `is_error: true` with the message as text.
 */
export function toToolResultBlock(result: ToolResult, options: AnthropicResultOptions = {}): AnthropicToolResultBlock {
  const toolUseId = (options.callIds ?? defaultCallIds()).toProvider(result.callId);
  if (!result.ok)
    return { type: 'tool_result', tool_use_id: toolUseId, is_error: true, content: errorMessageText(result.error) };
  const parts = successParts(result);
  if (isTextOnly(parts)) return { type: 'tool_result', tool_use_id: toolUseId, content: partsAsText(parts, () => '') };
  return {
    type: 'tool_result',
    tool_use_id: toolUseId,
    content: parts.map((part, index) => lowerPart(part, index, options)),
  };
}

function lowerPart(part: ContentPart, index: number, options: ImageResultOptions): AnthropicToolResultContent {
  switch (part.type) {
    case 'text':
    case 'json':
      return { type: 'text', text: textOfPart(part) };
    case 'image': {
      if ('data' in part && !IMAGE_MEDIA_TYPES.includes(part.mimeType))
        return { type: 'text', text: leftOutNote(part, index, 'Anthropic') };
      const image = imageWithinLimit(part, index, ANTHROPIC_MAX_IMAGE_BYTES, 'Anthropic', options);
      if (image.type === 'text') return image;
      return {
        type: 'image',
        source:
          'data' in image
            ? { type: 'base64', media_type: image.mimeType as AnthropicImageMediaType, data: image.data }
            : { type: 'url', url: image.url },
      };
    }
    case 'resource': {
      const resource = part.resource;
      if ('text' in resource)
        return {
          type: 'document',
          source: { type: 'text', media_type: 'text/plain', data: resource.text },
          title: resource.uri,
        };
      if (resource.mimeType === 'application/pdf')
        return {
          type: 'document',
          source: { type: 'base64', media_type: 'application/pdf', data: resource.blob },
          title: resource.uri,
        };
      return { type: 'text', text: leftOutNote(part, index, 'Anthropic') };
    }
    default:
      return { type: 'text', text: leftOutNote(part, index, 'Anthropic') };
  }
}

/** One result as the `user` message that answers its call. */
export function toToolResultMessage(
  result: ToolResult,
  options: AnthropicResultOptions = {},
): AnthropicToolResultMessage {
  return { role: 'user', content: [toToolResultBlock(result, options)] };
}

/** Parallel results: all `tool_result` blocks in one `user` message, in call order (as the API requires). */
export function toToolResultMessages(
  results: readonly ToolResult[],
  options: AnthropicResultOptions = {},
): AnthropicToolResultMessage[] {
  const callIds = options.callIds ?? defaultCallIds();
  return results.length === 0
    ? []
    : [{ role: 'user', content: results.map((result) => toToolResultBlock(result, { ...options, callIds })) }];
}
