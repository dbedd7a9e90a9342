/**
 * Cross-field rules (`dependentRequired`, `oneOf`/`anyOf` of `required` sets, `not: {required}` on the arguments
 * object) are JSON Schema no chat provider takes at the root of a tool's parameters (OpenAI and Anthropic reject
 * root combinators; the others drop them). The lowering moves them into the root description note, where
 * `fromProviderTool` finds them again, and says each rule in words at the end of the tool description, so the model
 * reads it before calling. MCP keeps them as they are (an `inputSchema` is plain JSON Schema).
 */
import { type ToolDefinition } from '@toolwright/core';
import { describeCrossFieldRule } from '@toolwright/core/internal';
import { joinDescription, moveKeywordsToNote } from '../description-notes';
import type { JsonSchema } from '../json-schema';

/** The root keywords core's exporter writes for cross-field rules. */
export const CROSS_FIELD_KEYWORDS: readonly string[] = Object.freeze([
  'dependentRequired',
  'oneOf',
  'anyOf',
  'not',
  'allOf',
]);

/** The rules of a definition in words, one sentence each (`Send exactly one of "path" or "content".`). */
export function crossFieldSentences(definition: ToolDefinition): string | undefined {
  const rules = definition.parameters.crossFieldRules;
  if (rules === undefined || rules.length === 0) return undefined;
  return rules.map(describeCrossFieldRule).join(' ');
}

/** Moves the root cross-field keywords into the note and the rules' sentences into the description. */
export function lowerCrossFieldRules(
  definition: ToolDefinition,
  description: string | undefined,
  parameters: JsonSchema,
): { description: string | undefined; parameters: JsonSchema } {
  const sentences = crossFieldSentences(definition);
  if (sentences === undefined) return { description, parameters };
  moveKeywordsToNote(parameters, CROSS_FIELD_KEYWORDS);
  return { description: joinDescription(description, sentences), parameters };
}

/** The description without the sentences the lowering appended for these rules (the reverse of the above). */
export function withoutCrossFieldSentences(definition: ToolDefinition, description: string): string {
  const sentences = crossFieldSentences(definition);
  if (sentences === undefined) return description;
  if (description === sentences) return '';
  return description.endsWith(` ${sentences}`) ? description.slice(0, -(sentences.length + 1)) : description;
}
