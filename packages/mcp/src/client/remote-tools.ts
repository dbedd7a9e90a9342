import {
  definitionFromJsonSchema,
  type JsonSchemaLimits,
  type PropertyDefinition,
  type ToolDefinition,
  type ToolOptions,
} from '@toolwright/core';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { clientMessages } from '../messages';
import { McpContent } from '../content';


/** What importing one remote tool needs to know about its server. */
export interface RemoteToolImportOptions {
  readonly server: string;
  /** `undefined`: the tool keeps its own name. */
  readonly namespace?: string;
  /** Model key -> the schema's property name, for this tool. */
  readonly aliases?: Readonly<Record<string, string>>;
  readonly limits?: Partial<JsonSchemaLimits>;
  readonly trustAnnotations: boolean;
  readonly toolOptions: ToolOptions;
  /** Where alias problems are reported. */
  readonly warn: (message: string) => void;
}

/**
 * A server's `tools/list` entry as a registry definition: the schema imported as untrusted (depth, size and regex
 * bounds; a keyword the IR cannot hold refuses the tool), the name namespaced, the static parameter renames added
 * as declared aliases (so each rename is an `alias-key` transformation the executor records and logs), annotations
 * kept only from a trusted server. Throws a DefinitionError naming the reason when the tool cannot be used.
 */
export function importRemoteTool(tool: Tool, options: RemoteToolImportOptions): ToolDefinition {
  const title = tool.title ?? tool.annotations?.title;
  const { title: _annotationTitle, ...hints } = tool.annotations ?? {};
  const definition = definitionFromJsonSchema(
    {
      name: tool.name,
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      inputSchema: tool.inputSchema,
      ...(title !== undefined ? { title } : {}),
      ...(options.trustAnnotations && Object.keys(hints).length > 0 ? { annotations: hints } : {}),
    },
    { ...options.toolOptions, namespace: options.namespace, untrusted: true, limits: options.limits },
  );
  return options.aliases === undefined ? definition : withAliases(definition, tool.name, options);
}

function withAliases(definition: ToolDefinition, remoteName: string, options: RemoteToolImportOptions): ToolDefinition {
  const aliases = options.aliases ?? {};
  const names = new Set(definition.parameters.properties.map((property) => property.name));
  const added = new Map<string, string[]>();
  for (const [alias, property] of Object.entries(aliases)) {
    if (!names.has(property)) {
      options.warn(clientMessages.aliasTargetMissing(options.server, remoteName, alias, property));
      continue;
    }
    if (names.has(alias)) {
      options.warn(clientMessages.aliasConflict(options.server, remoteName, alias));
      continue;
    }
    added.set(property, [...(added.get(property) ?? []), alias]);
  }
  if (added.size === 0) return definition;
  const properties: PropertyDefinition[] = definition.parameters.properties.map((property) => {
    const extra = added.get(property.name);
    return extra ? Object.freeze({ ...property, aliases: Object.freeze([...property.aliases, ...extra]) }) : property;
  });
  return Object.freeze({
    ...definition,
    parameters: Object.freeze({ ...definition.parameters, properties: Object.freeze(properties) }),
  });
}

/**
 * A successful `CallToolResult` as the value the executor returns: `structuredContent` when the server sent it,
 * the text when every block is text, otherwise the blocks themselves (an `McpContent`, which `serveMcp` passes on
 * unchanged).
 */
export function valueOfResult(result: CallToolResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const blocks = result.content ?? [];
  if (blocks.every((block) => block.type === 'text')) return blocks.map((block) => (block as { text: string }).text).join('\n');
  return new McpContent(blocks);
}

/** The text of an `isError` result, for the model. */
export function errorTextOfResult(result: CallToolResult): string {
  const texts = (result.content ?? []).filter((block) => block.type === 'text').map((block) => (block as { text: string }).text);
  return texts.length > 0 ? texts.join('\n') : 'the server gave no message';
}
