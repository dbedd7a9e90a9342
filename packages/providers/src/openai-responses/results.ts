/**
 * openai-responses: results back.
 * The wire format is summarized in `./index.ts` (provider-formats.md §2).
 */
import type { ContentPart, ToolResult } from '@toolwright/core';
import {
  dataUrl,
  fileName,
  imageWithinLimit,
  isTextOnly,
  leftOutNote,
  partsAsText,
  successParts,
  textOfPart,
  type ImageResultOptions,
} from '../shared/content';
import { errorJsonText } from '../shared/results';

/** `ResponseInputTextContent`, `ResponseInputImageContent` and `ResponseInputFileContent`. */
export type OpenAIFunctionCallOutputContent =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail?: 'auto' | 'low' | 'high' }
  | { type: 'input_file'; file_data?: string; file_url?: string; filename?: string };

/** `ResponseInputItem.FunctionCallOutput`. */
export interface OpenAIFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string | OpenAIFunctionCallOutputContent[];
}

/** The largest inline image sent (20 MB; OpenAI bounds a whole request's images at 50 MB). */
export const OPENAI_RESPONSES_MAX_IMAGE_BYTES = 20 * 1024 * 1024;

export type OpenAIResponsesResultOptions = ImageResultOptions;

/**
 * A result as a `function_call_output` input item: text and JSON as one output text (as without content parts);
 * with images or files, an output list of `input_text`, `input_image` (a data URL or the image's URL) and
 * `input_file` (a file's bytes as a data URL, or its text as `input_text`). Audio is left out with a note. An error is
 * a JSON `{"error": ...}` output (no error flag).
 */
export function toToolResultMessage(
  result: ToolResult,
  options: OpenAIResponsesResultOptions = {},
): OpenAIFunctionCallOutput {
  if (!result.ok) return { type: 'function_call_output', call_id: result.callId, output: errorJsonText(result.error) };
  const parts = successParts(result);
  if (isTextOnly(parts))
    return { type: 'function_call_output', call_id: result.callId, output: partsAsText(parts, () => '') };
  return {
    type: 'function_call_output',
    call_id: result.callId,
    output: parts.map((part, index) => lowerPart(part, index, options)),
  };
}

function lowerPart(part: ContentPart, index: number, options: ImageResultOptions): OpenAIFunctionCallOutputContent {
  switch (part.type) {
    case 'text':
    case 'json':
      return { type: 'input_text', text: textOfPart(part) };
    case 'image': {
      const image = imageWithinLimit(part, index, OPENAI_RESPONSES_MAX_IMAGE_BYTES, 'OpenAI', options);
      if (image.type === 'text') return { type: 'input_text', text: image.text };
      return { type: 'input_image', image_url: 'data' in image ? dataUrl(image.mimeType, image.data) : image.url };
    }
    case 'resource': {
      const resource = part.resource;
      if ('text' in resource) return { type: 'input_text', text: resource.text };
      return {
        type: 'input_file',
        file_data: dataUrl(resource.mimeType ?? 'application/octet-stream', resource.blob),
        filename: fileName(resource.uri),
      };
    }
    default:
      return { type: 'input_text', text: leftOutNote(part, index, 'OpenAI') };
  }
}
