/**
 * mcp: definitions out (lowering) and back in (`fromTool`).
 * The wire format is summarized in `./index.ts` (provider-formats.md §9).
 */
import { toJsonSchema, type ParamSchema, type ToolAnnotations, type ToolDefinition } from '@toolwright/core';
import { includes, resolveApiVersion } from '../shared/api-versions';
import type { ToolSource } from '../shared/definitions';
import { importToolDefinition, type ImportOptions } from '../shared/import-definition';
import { type JsonSchema, type JsonValue } from '../shared/json-schema';
import { restoreNotes } from '../shared/lowering/reverse';
import { MCP_NAME_PROFILE, type ToolNameProfile } from '../shared/name-profiles';
import { buildToolSet, type ToolSet, type ToolSetOptions } from '../shared/tool-set';

/** The `inputSchema` of an MCP tool: an object schema (JSON values throughout, as the MCP SDK types it). */
export interface McpInputSchema {
  type: 'object';
  properties?: { [name: string]: JsonValue };
  required?: string[];
  [keyword: string]: unknown;
}

/** A `tools/list` entry (`Tool`). */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: McpInputSchema;
  /** What the tool returns (since 2025-06-18): its results carry it as `structuredContent`. */
  outputSchema?: McpInputSchema;
  annotations?: ToolAnnotations & { title?: string };
}

/** Protocol versions that changed the `Tool` shape: `annotations` (2025-03-26), a top-level `title` (2025-06-18). */
const ANNOTATIONS_SINCE = '2025-03-26';
const TITLE_SINCE = '2025-06-18';

export interface McpToolsOptions extends ToolSetOptions {
  /**
   * `encoded` (default): names outside SEP-986 (`^[A-Za-z0-9._-]{1,128}$`) are encoded by the codec and decoded back
   * by `parseToolCalls`; `as-registered`: every name is listed as registered (what `serveMcp` does, warning about
   * names outside SEP-986; the executor resolves the calls by registry name).
   */
  readonly names?: 'encoded' | 'as-registered';
}

/** Every registry name as itself: the profile of `names: 'as-registered'`. */
const AS_REGISTERED_NAME_PROFILE: ToolNameProfile = Object.freeze({
  id: 'mcp-as-registered',
  rule: 'any registry name',
  allowedCharacter: /^[\s\S]$/u,
  maxLength: Number.MAX_SAFE_INTEGER,
});

/** Whether any property of the schema (at any depth) is filled from the trusted context. */
function hasContextFields(root: ParamSchema): boolean {
  const seen = new Set<ParamSchema>();
  const stack: ParamSchema[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    if (node.kind === 'array') stack.push(node.items);
    else if (node.kind === 'union') stack.push(...node.variants);
    else if (node.kind === 'object') {
      if (node.properties.some((property) => property.context !== undefined)) return true;
      stack.push(...node.properties.map((property) => property.schema));
      if (typeof node.additionalProperties === 'object') stack.push(node.additionalProperties);
    }
  }
  return false;
}

/**
 * The `inputSchema` of a tool: a tool registered from JSON Schema (a remote MCP tool, a declared schema) is listed
 * with the schema it was declared with, so keywords such as `$defs` and `$ref` are kept as written (SEP-1613); any
 * other tool, and a JSON Schema tool with context fields (an imported LangChain tool whose `session_id` comes from
 * the context), with the draft 2020-12 export of the IR, with `$schema`, where context fields never appear: the
 * model does not set them. Both describe the same values (the importer refuses any keyword the IR cannot enforce).
 * A fresh copy each time: the listing cannot alter the registered schema.
 */
export function mcpInputSchema(definition: ToolDefinition): McpInputSchema {
  const declared = definition.source.kind === 'json-schema' && !hasContextFields(definition.parameters);
  const schema: JsonSchema = declared
    ? (JSON.parse(JSON.stringify(definition.source.schema)) as JsonSchema)
    : (toJsonSchema(definition, { includeDialect: true }) as JsonSchema);
  return { ...schema, type: 'object' };
}

/**
 * The `outputSchema` of a tool that declares one (`@Command({ returns })`, `outputSchema`): the draft 2020-12 export
 * of its output schema, without `$schema` (clients compile it with their own validator's default dialect).
 */
export function mcpOutputSchema(definition: ToolDefinition): McpInputSchema | undefined {
  if (definition.output === undefined) return undefined;
  return { ...(toJsonSchema(definition.output) as JsonSchema), type: 'object' };
}

export function createToolSet(source: ToolSource, options: McpToolsOptions = {}): ToolSet<McpTool> {
  const version = resolveApiVersion('mcp', options.version);
  const topLevelTitle = includes(version, TITLE_SINCE);
  const withAnnotations = includes(version, ANNOTATIONS_SINCE);
  return buildToolSet({
    provider: 'mcp',
    source,
    profile: options.names === 'as-registered' ? AS_REGISTERED_NAME_PROFILE : MCP_NAME_PROFILE,
    options,
    strict: false,
    lower: ({ definition, name, description }) => {
      const title = withAnnotations ? definition.options.title : undefined;
      const tool: McpTool = {
        name,
        ...(title !== undefined && topLevelTitle ? { title } : {}),
        ...(description !== undefined ? { description } : {}),
        inputSchema: mcpInputSchema(definition),
        // Output schemas came with the top-level title (2025-06-18); earlier clients would not read one.
        ...(definition.output !== undefined && topLevelTitle ? { outputSchema: mcpOutputSchema(definition) } : {}),
      };
      const hints = withAnnotations ? definition.options.annotations : undefined;
      // 2025-03-26 had no top-level title: annotations.title carries it.
      if ((hints && Object.keys(hints).length > 0) || (title !== undefined && !topLevelTitle)) {
        tool.annotations = { ...(title !== undefined ? { title } : {}), ...hints };
      }
      return tool;
    },
  });
}

/** Imports an MCP tool (title and annotations included) into the IR. */
export function fromTool(tool: McpTool, options: ImportOptions = {}): ToolDefinition {
  const { title: annotationTitle, ...hints } = tool.annotations ?? {};
  const title = tool.title ?? annotationTitle;
  return importToolDefinition(tool.name, tool.description, restoreNotes(tool.inputSchema), options, {
    ...(title !== undefined ? { title } : {}),
    ...(Object.keys(hints).length > 0 ? { annotations: hints } : {}),
  });
}
