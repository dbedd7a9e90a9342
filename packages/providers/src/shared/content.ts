/**
 * A successful result's content parts (core's model view: `toModelOutput`, a `ToolContent` value, or the value cut to
 * the result budget), and what every provider's lowering shares: the text of text and JSON parts, the size of an
 * image, the note for a part a provider cannot take in a tool result. Each provider's `results.ts` lowers the parts
 * to its own form (docs/results.md has the table); a part is never dropped without the model being told.
 */
import type { ContentPart, ImageDataPart, ImagePart, ToolResult } from '@toolwright/core';
import { isTextOnly, jsonText, modelContent, partsText as partsAsText } from '@toolwright/core/internal';
import { errorJsonText } from './results';

export { isTextOnly, partsAsText };

export type SuccessResult = Extract<ToolResult, { ok: true }>;

/** What the model reads of a successful result, as parts. */
export function successParts(result: SuccessResult): readonly ContentPart[] {
  return modelContent(result);
}

/** The text of a text or JSON part (JSON as compact JSON text). */
export function textOfPart(part: ContentPart & { type: 'text' | 'json' }): string {
  return part.type === 'text' ? part.text : jsonText(part.value);
}

/** A short description of a non-text part: `image 1 (image/png, 12.3 KB)`. */
export function describePart(part: ContentPart, index: number): string {
  switch (part.type) {
    case 'image':
      return 'data' in part
        ? `image ${index + 1} (${part.mimeType}, ${formatBytes(base64Bytes(part.data))})`
        : `image ${index + 1} (${part.url})`;
    case 'audio':
      return `audio ${index + 1} (${part.mimeType}, ${formatBytes(base64Bytes(part.data))})`;
    case 'resource':
      return `file ${index + 1} (${part.resource.uri}${part.resource.mimeType ? `, ${part.resource.mimeType}` : ''})`;
    case 'resource_link':
      return `file link ${index + 1} (${part.name}: ${part.uri})`;
    default:
      return `part ${index + 1}`;
  }
}

/** The note for a part this provider cannot take in a tool result and does not send elsewhere. */
export function leftOutNote(part: ContentPart, index: number, provider: string): string {
  if (part.type === 'resource_link')
    return `[${describePart(part, index)}${part.description ? `: ${part.description}` : ''}]`;
  return `[${describePart(part, index)} left out: ${provider} does not take this kind of content in a tool result]`;
}

/** The bytes a base64 text decodes to. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * What the application does with an image over a provider's size limit: return a smaller image (resized, recompressed)
 * within `limitBytes`, or `undefined` to leave it out (the model is told). Without a hook, such an image is left out.
 */
export type OversizedImageHook = (image: ImageDataPart, limitBytes: number) => ImageDataPart | undefined;

/** The options every provider's result lowering takes for images. */
export interface ImageResultOptions {
  /** Replaces an image over the provider's limit (see `OversizedImageHook`); never sent over the limit. */
  readonly oversizedImage?: OversizedImageHook;
}

/**
 * An image within `limitBytes`: as it is, or what the hook made of it (checked again), or a text note saying it was
 * left out and why. A URL image is passed on (the provider fetches it and applies its own limit).
 */
export function imageWithinLimit(
  image: ImagePart,
  index: number,
  limitBytes: number,
  provider: string,
  options: ImageResultOptions,
): ImagePart | { type: 'text'; text: string } {
  if (!('data' in image)) return image;
  const size = base64Bytes(image.data);
  if (size <= limitBytes) return image;
  const replaced = options.oversizedImage?.(image, limitBytes);
  if (replaced !== undefined && base64Bytes(replaced.data) <= limitBytes) return replaced;
  return {
    type: 'text',
    text: `[${describePart(image, index)} left out: over ${provider}'s limit of ${formatBytes(limitBytes)} for one image]`,
  };
}

/** `data:<mime>;base64,<data>` (what OpenAI takes for inline images and files). */
export function dataUrl(mimeType: string, data: string): string {
  return `data:${mimeType};base64,${data}`;
}

/**
 * The text a provider that takes only text gets: the model's view as one text (a part it cannot take is named in a
 * note), or `{"error": ...}`.
 */
export function resultText(result: ToolResult, provider: string): string {
  if (!result.ok) return errorJsonText(result.error);
  return partsAsText(successParts(result), (part, index) => leftOutNote(part, index, provider));
}

/** The last path segment of a URI (the file name a provider shows the model). */
export function fileName(uri: string): string {
  const segment = uri.split(/[/\\]/).pop() ?? '';
  return segment === '' ? 'file' : segment;
}
