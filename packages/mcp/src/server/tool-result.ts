import type { ToolResult } from '@toolwright/core';
import { toToolResultMessage } from '@toolwright/providers/mcp';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { McpContent } from '../content';

/**
 * An executor result as a `CallToolResult`, through the one MCP wire mapping (`@toolwright/providers/mcp`), with
 * `isError` only on errors. An `McpContent` value is sent as its blocks (and its structured content) unchanged; any
 * other value as text (a string as is, anything else as JSON), and an object value also as `structuredContent`.
 * Failure (invalid arguments, a handler error, a timeout, ...): `isError: true` with the model-facing message (and
 * the closest tool names when it does not list them), which never carries a stack.
 */
export function toCallToolResult(result: ToolResult): CallToolResult {
  if (result.ok && McpContent.isInstance(result.value)) {
    const value = result.value;
    return {
      content: [...value.content],
      ...(value.structuredContent !== undefined ? { structuredContent: { ...value.structuredContent } } : {}),
    };
  }
  return toToolResultMessage(result, { successFlag: 'omitted' });
}
