/** ReAct: `Thought: ..`, `Action: NAME`, `Action Input: {..}` per call. */
import type { RenderCall, RenderOptions } from './index';

export function render(calls: readonly RenderCall[], options: RenderOptions): string {
  const thought = options.prose === undefined || options.prose === '' ? '' : `Thought: ${options.prose}\n`;
  return calls
    .map(
      (call, index) =>
        `${index === 0 ? thought : 'Thought: next\n'}Action: ${call.name}\nAction Input: ${JSON.stringify(call.arguments)}`,
    )
    .join('\n\n');
}

/**
 * The spellings LlamaIndex's `extract_tool_use` reads (llama-index-core agent/react/output_parser.py): blank lines
 * between the markers, a note after the name, and the input in a code fence.
 */
export function renderLlamaIndex(calls: readonly RenderCall[], options: RenderOptions): string {
  const thought = options.prose === undefined || options.prose === '' ? '' : `Thought: ${options.prose}\n\n`;
  return calls
    .map(
      (call, index) =>
        `${index === 0 ? thought : 'Thought: next\n\n'}Action: ${call.name} (the tool)\n\n` +
        `Action Input: \`\`\`json\n${JSON.stringify(call.arguments, null, 2)}\n\`\`\`\nObservation: pending`,
    )
    .join('\n\n');
}

/**
 * LangChain's JSON form (`ReActJsonSingleInputOutputParser`, agents/output_parsers/react_json_single_input.py; the
 * structured chat agent's prompt): `Action:` and a fence holding `{"action": NAME, "action_input": {...}}`.
 */
export function renderLangChainJson(calls: readonly RenderCall[], options: RenderOptions): string {
  const thought = options.prose === undefined || options.prose === '' ? '' : `Thought: ${options.prose}\n`;
  return calls
    .map(
      (call, index) =>
        `${index === 0 ? thought : 'Thought: next\n'}Action:\n\`\`\`\n` +
        `${JSON.stringify({ action: call.name, action_input: call.arguments }, null, 4)}\n\`\`\``,
    )
    .join('\nObservation: pending\n');
}
