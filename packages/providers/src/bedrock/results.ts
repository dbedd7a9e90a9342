/**
 * bedrock: results back.
 * The wire format is summarized in `./index.ts` (provider-formats.md §7).
 */
import type { ContentPart, ToolResult } from '@toolwright/core';
import { BEDROCK_CALL_ID_PROFILE, CallIdCodec } from '../shared/call-ids';
import {
  imageWithinLimit,
  isTextOnly,
  leftOutNote,
  partsAsText,
  successParts,
  textOfPart,
  type ImageResultOptions,
} from '../shared/content';
import { isPlainObject, type JsonObject } from '../shared/json-schema';
import { errorMessageText, toJsonValue } from '../shared/results';

/** Image formats Converse takes. */
export type BedrockImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';
/** Document formats Converse takes. */
export type BedrockDocumentFormat = 'pdf' | 'csv' | 'doc' | 'docx' | 'xls' | 'xlsx' | 'html' | 'txt' | 'md';

/** `ToolResultContentBlock` (bytes as the SDK takes them: a `Uint8Array`; base64 on the wire). */
export type BedrockToolResultContent =
  | { json: JsonObject }
  | { text: string }
  | { image: { format: BedrockImageFormat; source: { bytes: Uint8Array } } }
  | { document: { format: BedrockDocumentFormat; name: string; source: { bytes: Uint8Array } } };

/** Bedrock's limit for one image (3.75 MB). */
export const BEDROCK_MAX_IMAGE_BYTES = 3.75 * 1024 * 1024;

const IMAGE_FORMATS: Readonly<Record<string, BedrockImageFormat>> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

const DOCUMENT_FORMATS: Readonly<Record<string, BedrockDocumentFormat>> = {
  'application/pdf': 'pdf',
  'text/csv': 'csv',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'text/html': 'html',
  'text/plain': 'txt',
  'text/markdown': 'md',
};

/** `ToolResultBlock` inside its content block. */
export interface BedrockToolResultBlock {
  toolResult: { toolUseId: string; content: BedrockToolResultContent[]; status?: 'success' | 'error' };
}

/** The `user` `Message` carrying tool results. */
export interface BedrockToolResultMessage {
  role: 'user';
  content: BedrockToolResultBlock[];
}

export interface BedrockResultOptions extends ImageResultOptions {
  /** Rewrites ids that are not 1-64 `[a-zA-Z0-9_-]`, remembering them. */
  readonly callIds?: CallIdCodec;
  /**
   * `json` (default): an object value as a `{json}` block, anything else as text. `text`: always text (the most
   * portable: some non-Anthropic models reject `json` blocks).
   */
  readonly content?: 'json' | 'text';
  /** Send `status` (only Claude and Nova support it; errors are text either way). Default true. */
  readonly status?: boolean;
}

/** A result as a `toolResult` content block. */
export function toToolResultBlock(result: ToolResult, options: BedrockResultOptions = {}): BedrockToolResultBlock {
  const toolUseId = (options.callIds ?? new CallIdCodec(BEDROCK_CALL_ID_PROFILE)).toProvider(result.callId);
  const withStatus = options.status ?? true;
  if (!result.ok) {
    return {
      toolResult: {
        toolUseId,
        content: [{ text: errorMessageText(result.error) }],
        ...(withStatus ? { status: 'error' as const } : {}),
      },
    };
  }
  const parts = successParts(result);
  const content: BedrockToolResultContent[] = isTextOnly(parts)
    ? [textOnlyContent(parts, options)]
    : parts.map((part, index) => lowerPart(part, index, options));
  return { toolResult: { toolUseId, content, ...(withStatus ? { status: 'success' as const } : {}) } };
}

/** Text and JSON parts: one object value as a `{json}` block (unless `content: 'text'`), anything else as one text. */
function textOnlyContent(parts: readonly ContentPart[], options: BedrockResultOptions): BedrockToolResultContent {
  if (parts.length === 1 && parts[0]!.type === 'json' && options.content !== 'text') {
    const json = toJsonValue(parts[0]!.value);
    if (isPlainObject(json)) return { json };
  }
  return { text: partsAsText(parts, () => '') };
}

function lowerPart(part: ContentPart, index: number, options: BedrockResultOptions): BedrockToolResultContent {
  switch (part.type) {
    case 'text':
    case 'json':
      return { text: textOfPart(part) };
    case 'image': {
      const format = part.mimeType === undefined ? undefined : IMAGE_FORMATS[part.mimeType];
      if (format === undefined || !('data' in part)) return { text: leftOutNote(part, index, 'Bedrock') };
      const image = imageWithinLimit(part, index, BEDROCK_MAX_IMAGE_BYTES, 'Bedrock', options);
      if (image.type === 'text') return { text: image.text };
      return { image: { format, source: { bytes: base64ToBytes((image as { data: string }).data) } } };
    }
    case 'resource': {
      const resource = part.resource;
      const format = resource.mimeType === undefined ? undefined : DOCUMENT_FORMATS[resource.mimeType];
      if (format === undefined && 'text' in resource) return { text: resource.text };
      if (format === undefined) return { text: leftOutNote(part, index, 'Bedrock') };
      const bytes = 'text' in resource ? new TextEncoder().encode(resource.text) : base64ToBytes(resource.blob);
      return { document: { format, name: documentName(resource.uri, index), source: { bytes } } };
    }
    default:
      return { text: leftOutNote(part, index, 'Bedrock') };
  }
}

/** A document name Converse accepts: letters, digits, single spaces, hyphens, parentheses and brackets. */
function documentName(uri: string, index: number): string {
  const base = (uri.split(/[/\\]/).pop() ?? '').replace(/\.[^.]*$/, '');
  const name = base
    .replace(/[^A-Za-z0-9\s\-()[\]]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return name === '' ? `document ${index + 1}` : name.slice(0, 200);
}

function base64ToBytes(data: string): Uint8Array {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

export function toToolResultMessage(result: ToolResult, options: BedrockResultOptions = {}): BedrockToolResultMessage {
  return { role: 'user', content: [toToolResultBlock(result, options)] };
}

/** Parallel results: all `toolResult` blocks in one `user` message. */
export function toToolResultMessages(
  results: readonly ToolResult[],
  options: BedrockResultOptions = {},
): BedrockToolResultMessage[] {
  const callIds = options.callIds ?? new CallIdCodec(BEDROCK_CALL_ID_PROFILE);
  return results.length === 0
    ? []
    : [{ role: 'user', content: results.map((result) => toToolResultBlock(result, { ...options, callIds })) }];
}
