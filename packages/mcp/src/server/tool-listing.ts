import type { ToolDefinition } from '@toolwright/core';
import { toTools } from '@toolwright/providers/mcp';
import type { Tool } from '@modelcontextprotocol/server';

/**
 * Registry definitions as MCP `tools/list` entries, through the one MCP wire mapping (`@toolwright/providers/mcp`):
 * name (as registered), title, description, input schema (the declared schema of a JSON Schema tool, the draft
 * 2020-12 export with `$schema` of any other; context fields never appear) and annotations (the `@Command` hints,
 * with the title).
 */
export function toMcpTools(definitions: readonly ToolDefinition[]): Tool[] {
  return toTools(definitions, { names: 'as-registered' });
}

/** One registry definition as an MCP `tools/list` entry (see `toMcpTools`). */
export function toMcpTool(definition: ToolDefinition): Tool {
  const [tool] = toMcpTools([definition]);
  if (tool === undefined) throw new Error(`unreachable: the MCP listing of tool "${definition.name}" is empty`);
  return tool;
}
