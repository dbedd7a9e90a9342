/**
 * gemini: results back.
 * The wire format is summarized in `./index.ts` (provider-formats.md §4).
 */
import type { ContentPart, ToolResult } from '@toolwright/core';
import { isGeneratedCallId } from '../shared/call-ids';
import {
  describePart,
  imageWithinLimit,
  isTextOnly,
  leftOutNote,
  successParts,
  textOfPart,
  type ImageResultOptions,
} from '../shared/content';
import { type JsonObject } from '../shared/json-schema';
import type { ToolNameCodec } from '../shared/name-codec';
import { errorObject, toJsonValue } from '../shared/results';
import { type ToolSetContext } from '../shared/tool-set';
export type { ParsedToolCall, ParseToolCallsOptions } from '../shared/calls';
export type { ToolSet, ToolSetOptions } from '../shared/tool-set';
export { toGeminiSchema, fromGeminiSchema, GEMINI_SCHEMA_KEYWORDS, type GeminiSchema, type GeminiType } from './schema';

/** `FunctionResponsePart`: media inside a function response (`inlineData` bytes or `fileData` URI). */
export type GeminiMediaPart =
  | { inlineData: { mimeType: string; data: string; displayName?: string } }
  | { fileData: { mimeType: string; fileUri: string; displayName?: string } };

/** `Part` with a `FunctionResponse`. */
export interface GeminiFunctionResponsePart {
  functionResponse: { id?: string; name: string; response: JsonObject; parts?: GeminiMediaPart[] };
}

/** `Content` carrying function responses (and, in the fallback, the media that follow them). */
export interface GeminiFunctionResponseContent {
  role: 'user';
  parts: (GeminiFunctionResponsePart | GeminiMediaPart)[];
}

export interface GeminiResultOptions extends ImageResultOptions {
  /** The tool set (or its codec) the call came from: the response names the function as Gemini knows it. */
  readonly toolSet?: Pick<ToolSetContext, 'codec'>;
  readonly codec?: ToolNameCodec;
  /**
   * Where images and files go: `'function-response'` (default) in `functionResponse.parts` (multimodal function
   * responses, Gemini 3 and later); `'user-parts'` for models that reject those: a note in the response and the media
   * as parts of the same `user` turn, after the function responses.
   */
  readonly media?: 'function-response' | 'user-parts';
}

/** Gemini's bound for inline data (a whole request's inline bytes: 20 MB). */
export const GEMINI_MAX_INLINE_BYTES = 20 * 1024 * 1024;

function providerName(tool: string, options: GeminiResultOptions): string {
  const codec = options.toolSet?.codec ?? options.codec;
  return codec?.has(tool) ? codec.encode(tool) : tool;
}

/**
 * A result as a `functionResponse` part: `response: {output: value}` (an object value is also under `output`, as
 * the SDK documents), errors as `response: {error: {code, message, retryable}}`. Generated ids are left out. Content
 * parts: text and JSON go under `output` (as one text when there are several, or there are media); images and files
 * go in `functionResponse.parts` as `inlineData` or `fileData` (see `media` for the fallback).
 */
export function toFunctionResponsePart(
  result: ToolResult,
  options: GeminiResultOptions = {},
): GeminiFunctionResponsePart {
  return lowerResult(result, options).part;
}

function lowerResult(
  result: ToolResult,
  options: GeminiResultOptions,
): { part: GeminiFunctionResponsePart; following: GeminiMediaPart[] } {
  const functionResponse: GeminiFunctionResponsePart['functionResponse'] = {
    name: providerName(result.tool, options),
    response: {},
  };
  if (!isGeneratedCallId(result.callId)) functionResponse.id = result.callId;
  const following: GeminiMediaPart[] = [];
  if (!result.ok) {
    functionResponse.response = { error: errorObject(result.error) };
  } else {
    const parts = successParts(result);
    if (parts.length === 1 && parts[0]!.type === 'json') {
      functionResponse.response = { output: toJsonValue(parts[0]!.value) };
    } else if (isTextOnly(parts)) {
      functionResponse.response = {
        output: parts.map((part) => textOfPart(part as ContentPart & { type: 'text' | 'json' })).join('\n\n'),
      };
    } else {
      const texts: string[] = [];
      const media: GeminiMediaPart[] = [];
      parts.forEach((part, index) => lowerPart(part, index, options, texts, media));
      if (options.media === 'user-parts' && media.length > 0) {
        texts.push(
          `[${media.length === 1 ? 'The media part follows' : 'The media parts follow'} this function response in the same turn.]`,
        );
        following.push(...media);
      } else if (media.length > 0) functionResponse.parts = media;
      functionResponse.response = { output: texts.join('\n\n') };
    }
  }
  return { part: { functionResponse }, following };
}

function lowerPart(
  part: ContentPart,
  index: number,
  options: GeminiResultOptions,
  texts: string[],
  media: GeminiMediaPart[],
): void {
  switch (part.type) {
    case 'text':
    case 'json':
      texts.push(textOfPart(part));
      return;
    case 'image': {
      const image = imageWithinLimit(part, index, GEMINI_MAX_INLINE_BYTES, 'Gemini', options);
      if (image.type === 'text') texts.push(image.text);
      else if ('data' in image) media.push({ inlineData: { mimeType: image.mimeType, data: image.data } });
      else media.push({ fileData: { mimeType: image.mimeType ?? 'image/*', fileUri: image.url } });
      return;
    }
    case 'audio':
      media.push({ inlineData: { mimeType: part.mimeType, data: part.data } });
      return;
    case 'resource': {
      const resource = part.resource;
      if ('text' in resource) texts.push(resource.text);
      else
        media.push({
          inlineData: {
            mimeType: resource.mimeType ?? 'application/octet-stream',
            data: resource.blob,
            displayName: resource.uri,
          },
        });
      return;
    }
    default:
      texts.push(part.type === 'resource_link' ? leftOutNote(part, index, 'Gemini') : `[${describePart(part, index)}]`);
  }
}

/** One result as the `user` turn answering its call. */
export function toToolResultMessage(
  result: ToolResult,
  options: GeminiResultOptions = {},
): GeminiFunctionResponseContent {
  const { part, following } = lowerResult(result, options);
  return { role: 'user', parts: [part, ...following] };
}

/** Parallel results: one `user` turn with one `functionResponse` part per call, in order. */
export function toToolResultMessages(
  results: readonly ToolResult[],
  options: GeminiResultOptions = {},
): GeminiFunctionResponseContent[] {
  if (results.length === 0) return [];
  const lowered = results.map((result) => lowerResult(result, options));
  // The function responses first, in call order; media of the `user-parts` fallback after all of them.
  return [
    { role: 'user', parts: [...lowered.map((entry) => entry.part), ...lowered.flatMap((entry) => entry.following)] },
  ];
}
