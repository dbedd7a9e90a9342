import { isJsonWhitespace } from './json-text-rules';

/**
 * Chat-template control tokens: the markers a serving stack's template writes around a turn, which a model's
 * arguments text sometimes still carries when the stop sequence did not catch them (`{"q": "cats"}<|im_end|>`). One
 * list for every reader: the arguments reader strips them from the ends of the text (`control-token`), and the text
 * dialects of `@toolwright/providers` cut a cut-off block at them. Tokens with the full-width bar (`｜`, `\uff5c`) and
 * the lower one-eighth block (`▁`, `\u2581`) of DeepSeek's templates are written as escapes so core's bundle stays
 * ASCII.
 */
export const CONTROL_TOKENS: readonly string[] = Object.freeze([
  // ChatML (Qwen, Hermes, Yi, many fine-tunes)
  '<|im_end|>',
  '<|im_start|>',
  '<|endoftext|>',
  // Llama 3
  '<|eot_id|>',
  '<|eom_id|>',
  '<|end_of_text|>',
  // Phi, gpt-oss harmony
  '<|end|>',
  '<|call|>',
  '<|return|>',
  // Llama 2, Mistral, many SentencePiece templates
  '</s>',
  // Gemma
  '<end_of_turn>',
  // Command R
  '<|END_OF_TURN_TOKEN|>',
  // DeepSeek
  '<\uff5cend\u2581of\u2581sentence\uff5c>',
  // GLM
  '<|user|>',
  '<|observation|>',
]);

/** The control token that starts at `index` of `text`, or undefined. */
export function controlTokenAt(text: string, index: number): string | undefined {
  if (text.charCodeAt(index) !== 60 /* < */) return undefined;
  for (const token of CONTROL_TOKENS) if (text.startsWith(token, index)) return token;
  return undefined;
}

/** Where the first control token in `text` starts, or -1. Linear: one `indexOf` per token. */
export function firstControlToken(text: string): number {
  let first = -1;
  for (const token of CONTROL_TOKENS) {
    const at = text.indexOf(token);
    if (at !== -1 && (first === -1 || at < first)) first = at;
  }
  return first;
}

/**
 * `text` without the control tokens (and the white space between them) at its start and its end; `removed` lists the
 * tokens taken off, in order. A token inside the text stays: it is content, or a second turn, never an artefact.
 */
export function withoutControlTokens(text: string): { readonly text: string; readonly removed: readonly string[] } {
  const removed: string[] = [];
  let start = 0;
  let end = text.length;
  for (;;) {
    while (start < end && isJsonWhitespace(text.charCodeAt(start))) start++;
    const token = controlTokenAt(text, start);
    if (token === undefined || start + token.length > end) break;
    removed.push(token);
    start += token.length;
  }
  for (;;) {
    while (end > start && isJsonWhitespace(text.charCodeAt(end - 1))) end--;
    const token = CONTROL_TOKENS.find((candidate) => end - candidate.length >= start && text.endsWith(candidate, end));
    if (token === undefined) break;
    removed.push(token);
    end -= token.length;
  }
  return { text: removed.length === 0 ? text : text.slice(start, end), removed };
}
