import type { ToolResult } from '@toolwright/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpContent } from '../content';

/**
 * An executor result as a `CallToolResult`. Success: an `McpContent` value is sent as its blocks; any other value
 * as text (a string as is, anything else as JSON), and an object value also as `structuredContent` (the same JSON,
 * per the spec's backwards-compatibility rule). Failure (invalid arguments, a handler error, a timeout, ...):
 * `isError: true` with the model-facing message, which names the argument, what was expected and how to fix it,
 * and never carries a stack.
 */
export function toCallToolResult(result: ToolResult): CallToolResult {
  if (!result.ok) return { content: [{ type: 'text', text: result.error.message }], isError: true };
  const value = result.value;
  if (McpContent.isInstance(value)) {
    return {
      content: [...value.content],
      ...(value.structuredContent !== undefined ? { structuredContent: { ...value.structuredContent } } : {}),
    };
  }
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  const json = toJson(value);
  if (json === undefined) return { content: [{ type: 'text', text: value === undefined ? '' : String(value) }] };
  const structured = JSON.parse(json) as unknown;
  return {
    content: [{ type: 'text', text: json }],
    ...(isPlainObject(structured) ? { structuredContent: structured } : {}),
  };
}

function toJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    // A BigInt or a cycle: not JSON; the text form is all there is.
    return undefined;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
