/**
 * openai: results back.
 * The wire format is summarized in `./index.ts` (provider-formats.md §1).
 */
import type { ContentPart, ToolResult } from '@toolwright/core';
import {
  dataUrl,
  describePart,
  fileName,
  imageWithinLimit,
  leftOutNote,
  partsAsText,
  successParts,
  type ImageResultOptions,
} from '../shared/content';
import { errorJsonText } from '../shared/results';

/** `ChatCompletionToolMessageParam`. */
export interface OpenAIToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

/** `ChatCompletionUserMessageParam` with image and file parts: where a tool result's images go (see below). */
export interface OpenAIUserMessage {
  role: 'user';
  content: (
    | { type: 'text'; text: string }
    | { type: 'image_url'; image_url: { url: string } }
    | { type: 'file'; file: { file_data: string; filename: string } }
  )[];
}

/** The largest inline image sent (20 MB). */
export const OPENAI_MAX_IMAGE_BYTES = 20 * 1024 * 1024;

export type OpenAIResultOptions = ImageResultOptions;

/**
 * A result as the tool message; an error is a JSON `{"error": {code, message, retryable}}` text (no error flag). Chat
 * Completions takes only text in a tool message: an image or file part is named in a note. `toToolResultMessages`
 * sends those parts in a `user` message after the tool messages (the note says so); this function alone cannot, so
 * its note says the part was left out.
 */
export function toToolResultMessage(result: ToolResult, options: OpenAIResultOptions = {}): OpenAIToolMessage {
  return toolMessage(result, options, undefined);
}

/**
 * Parallel results: one tool message per result, in order, then (when any result has images or files) one `user`
 * message carrying them, each introduced by the call it came from: Chat Completions' documented place for images.
 */
export function toToolResultMessages(
  results: readonly ToolResult[],
  options: OpenAIResultOptions = {},
): (OpenAIToolMessage | OpenAIUserMessage)[] {
  const following: OpenAIUserMessage['content'] = [];
  const messages: (OpenAIToolMessage | OpenAIUserMessage)[] = results.map((result) =>
    toolMessage(result, options, following),
  );
  if (following.length > 0) messages.push({ role: 'user', content: following });
  return messages;
}

function toolMessage(
  result: ToolResult,
  options: OpenAIResultOptions,
  following: OpenAIUserMessage['content'] | undefined,
): OpenAIToolMessage {
  if (!result.ok) return { role: 'tool', tool_call_id: result.callId, content: errorJsonText(result.error) };
  const parts = successParts(result);
  const content = partsAsText(parts, (part, index) => {
    const moved = following === undefined ? undefined : userPart(part, index, options);
    if (moved === undefined) return leftOutNote(part, index, 'OpenAI Chat Completions');
    if (moved.type === 'text') return moved.text;
    following!.push({ type: 'text', text: `${describePart(part, index)} of tool call ${result.callId}:` }, moved);
    return `[${describePart(part, index)} follows in the next user message]`;
  });
  return { role: 'tool', tool_call_id: result.callId, content };
}

/** A part as a user message part (`image_url`, `file`), a note when it is over the limit, or `undefined`. */
function userPart(
  part: ContentPart,
  index: number,
  options: ImageResultOptions,
): OpenAIUserMessage['content'][number] | undefined {
  if (part.type === 'image') {
    const image = imageWithinLimit(part, index, OPENAI_MAX_IMAGE_BYTES, 'OpenAI', options);
    if (image.type === 'text') return image;
    return { type: 'image_url', image_url: { url: 'data' in image ? dataUrl(image.mimeType, image.data) : image.url } };
  }
  if (part.type === 'resource' && 'blob' in part.resource)
    return {
      type: 'file',
      file: {
        file_data: dataUrl(part.resource.mimeType ?? 'application/octet-stream', part.resource.blob),
        filename: fileName(part.resource.uri),
      },
    };
  return undefined;
}
