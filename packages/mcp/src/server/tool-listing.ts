import { toJsonSchema, type ToolDefinition } from '@toolwright/core';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/**
 * A registry definition as an MCP `tools/list` entry: name, title, description, input schema (context fields never
 * appear: the model does not set them) and annotations (the `@Command` hints, with the title).
 *
 * The input schema is the draft 2020-12 export of the IR, with `$schema`; a tool registered from JSON Schema (a
 * remote MCP tool, a declared schema) is listed with the schema it was declared with, so keywords such as `$defs`
 * and `$ref` are kept as written (SEP-1613). Both describe the same values: the importer refuses any keyword the IR
 * cannot enforce, and JSON Schema tools have no context fields.
 */
export function toMcpTool(definition: ToolDefinition): Tool {
  const title = definition.options.title;
  const hints = definition.options.annotations;
  const annotations = hints !== undefined && Object.keys(hints).length > 0 ? { ...(title !== undefined ? { title } : {}), ...hints } : undefined;
  return {
    name: definition.name,
    ...(title !== undefined ? { title } : {}),
    ...(definition.description !== '' ? { description: definition.description } : {}),
    inputSchema: inputSchemaOf(definition),
    ...(annotations !== undefined ? { annotations } : {}),
  };
}

function inputSchemaOf(definition: ToolDefinition): Tool['inputSchema'] {
  if (definition.source.kind === 'json-schema') {
    const declared = JSON.parse(JSON.stringify(definition.source.schema)) as Record<string, unknown>;
    return { ...declared, type: 'object' } as Tool['inputSchema'];
  }
  return { ...toJsonSchema(definition, { includeDialect: true }), type: 'object' } as Tool['inputSchema'];
}
