import type { ToolResult } from '@toolwright/core';
import { toToolResultMessage, type McpResultOptions } from '@toolwright/providers/mcp';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * An executor result as a `CallToolResult`, through the one MCP wire mapping (`@toolwright/providers/mcp`), with
 * `isError` only on errors: the model's view of the value (its `toModelOutput` view, its content parts, or the view
 * cut to the result budget) as content blocks, and the whole value as `structuredContent` when it is an object (for a
 * result cut to the budget: only when the tool declares an output schema; docs/results.md). Failure (invalid
 * arguments, a handler error, a timeout, ...): `isError: true` with the model-facing message (and the closest tool
 * names when it does not list them), which never carries a stack.
 */
export function toCallToolResult(
  result: ToolResult,
  options: Pick<McpResultOptions, 'outputSchema' | 'maxStructuredContentChars'> = {},
): CallToolResult {
  return toToolResultMessage(result, { ...options, successFlag: 'omitted' });
}
