/**
 * hermes: definitions out (the tools and the system-turn prompt) and back in (`fromTool`).
 * The wire format is summarized in `./index.ts` (provider-formats.md §10).
 */
import type { ToolDefinition } from '@toolwright/core';
import type { ToolSource } from '../shared/definitions';
import { importToolDefinition, type ImportOptions } from '../shared/import-definition';
import { withoutDocumentKeywords } from '../shared/lowering/policies';
import { restoreNotes } from '../shared/lowering/reverse';
import { MCP_NAME_PROFILE } from '../shared/name-profiles';
import { buildToolSet, type ToolSet, type ToolSetOptions } from '../shared/tool-set';
import { pythonJsonDumps } from './text';

/** A tool as the chat templates render it (`{"type": "function", "function": {...}}`). */
export interface HermesTool {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

export type HermesFlavor = 'qwen' | 'hermes';

export function createToolSet(source: ToolSource, options: ToolSetOptions = {}): ToolSet<HermesTool> {
  return buildToolSet({
    provider: 'hermes',
    source,
    profile: MCP_NAME_PROFILE,
    options,
    strict: false,
    lower: ({ name, description, parameters }) => ({
      type: 'function',
      function: {
        name,
        ...(description !== undefined ? { description } : {}),
        parameters: withoutDocumentKeywords(parameters),
      },
    }),
  });
}

export interface ToolsPromptOptions {
  /** `qwen` (default): the Qwen2.5/Qwen3 template text; `hermes`: the Hermes-2-Pro/Hermes-3 wording. */
  readonly flavor?: HermesFlavor;
  /** Your own system prompt, placed before the tools section. */
  readonly systemPrompt?: string;
}

/** The system-turn text that declares the tools (what the chat template would render), without the turn markers. */
export function renderToolsPrompt(tools: readonly HermesTool[], options: ToolsPromptOptions = {}): string {
  const lines = tools.map((tool) => pythonJsonDumps(tool)).join('\n');
  const prefix = options.systemPrompt ? `${options.systemPrompt}\n\n` : '';
  if ((options.flavor ?? 'qwen') === 'hermes') {
    return (
      `${prefix}You are a function calling AI model. You are provided with function signatures within <tools></tools> XML tags. ` +
      "You may call one or more functions to assist with the user query. Don't make assumptions about what values to plug into functions. " +
      `Here are the available tools: <tools>\n${lines}\n</tools>\n` +
      'For each function call return a json object with function name and arguments within <tool_call></tool_call> XML tags as follows:\n' +
      '<tool_call>\n{"name": <function-name>, "arguments": <args-dict>}\n</tool_call>'
    );
  }
  return (
    `${prefix}# Tools\n\nYou may call one or more functions to assist with the user query.\n\n` +
    `You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n${lines}\n</tools>\n\n` +
    'For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n' +
    '<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>'
  );
}

export function fromTool(tool: HermesTool, options: ImportOptions = {}): ToolDefinition {
  return importToolDefinition(
    tool.function.name,
    tool.function.description,
    restoreNotes(tool.function.parameters),
    options,
  );
}
