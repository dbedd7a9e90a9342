import {
  CONTEXT_KEY_PROPERTIES,
  DefinitionError,
  definitionFromJsonSchema,
  type JsonSchemaLimits,
  type PropertyDefinition,
  type ToolDefinition,
  type ToolOptions,
} from '@toolwright/core';
import { canonicalKey } from '@toolwright/core/internal';
import type { CallToolResult, ContentBlock, Tool } from '@modelcontextprotocol/server';
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
  /**
   * Top-level parameters named like a trusted context field (`session_id`, `jobId`, `persona`, ...): `'withhold'`
   * (default) removes them from the tool, so the model never sees them and a value it sends is dropped as a
   * security event; a tool that requires one is refused. `'forward'` keeps them as ordinary model arguments. Either
   * way they are never filled from the trusted context.
   */
  readonly contextParameters?: 'withhold' | 'forward';
  /** Where alias and context-name problems are reported (lint warnings). */
  readonly warn: (message: string) => void;
}

/** Canonical forms (see core's `canonicalKey`) of every context key and of its ExecutionContext property. */
const CONTEXT_NAMES: ReadonlySet<string> = new Set(
  Object.entries(CONTEXT_KEY_PROPERTIES).flatMap(([key, property]) => [
    canonicalKey(key),
    canonicalKey(String(property)),
  ]),
);

/** The top-level parameters of a remote tool's input schema named like a trusted context field. */
export function contextNamedParameters(tool: Tool): string[] {
  const properties = (tool.inputSchema as { properties?: unknown }).properties;
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return [];
  return Object.keys(properties).filter((name) => CONTEXT_NAMES.has(canonicalKey(name)));
}

/** The tool with its context-named parameters withheld per `contextParameters` (see RemoteToolImportOptions). */
function withContextNamesHandled(tool: Tool, options: RemoteToolImportOptions): Tool {
  const names = contextNamedParameters(tool);
  if (names.length === 0) return tool;
  if (options.contextParameters === 'forward') {
    options.warn(clientMessages.contextNamesForwarded(options.server, tool.name, names));
    return tool;
  }
  const required = Array.isArray(tool.inputSchema.required) ? tool.inputSchema.required : [];
  const requiredNames = names.filter((name) => required.includes(name));
  if (requiredNames.length > 0) {
    throw new DefinitionError(clientMessages.contextNamesRequired(options.server, tool.name, requiredNames), {
      target: `MCP server '${options.server}', tool "${tool.name}"`,
      fix: `if the server needs a value the model chooses, set contextParameters: 'forward' for server '${options.server}'.`,
    });
  }
  options.warn(clientMessages.contextNamesWithheld(options.server, tool.name, names));
  const properties = { ...tool.inputSchema.properties };
  for (const name of names) delete properties[name];
  return { ...tool, inputSchema: { ...tool.inputSchema, properties } };
}

/**
 * A server's `tools/list` entry as a registry definition: the schema imported as untrusted (depth, size and regex
 * bounds; a keyword the IR cannot hold refuses the tool), the name namespaced, the static parameter renames added
 * as declared aliases (so each rename is an `alias-key` transformation the executor records and logs), annotations
 * kept only from a trusted server. Throws a DefinitionError naming the reason when the tool cannot be used.
 */
export function importRemoteTool(remoteTool: Tool, options: RemoteToolImportOptions): ToolDefinition {
  const tool = withContextNamesHandled(remoteTool, options);
  const title = tool.title ?? tool.annotations?.title;
  const { title: _annotationTitle, ...hints } = tool.annotations ?? {};
  const declaration = {
    name: tool.name,
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema,
    ...(title !== undefined ? { title } : {}),
    ...(options.trustAnnotations && Object.keys(hints).length > 0 ? { annotations: hints } : {}),
  };
  const importOptions = {
    ...options.toolOptions,
    namespace: options.namespace,
    untrusted: true,
    limits: options.limits,
  };
  let definition: ToolDefinition;
  if (tool.outputSchema === undefined) definition = definitionFromJsonSchema(declaration, importOptions);
  else {
    // The output schema joins the definition (listed again by serveMcp, each result checked by the executor); one the
    // IR cannot hold leaves the tool without it, still checked by the SDK client's bounded validator.
    try {
      definition = definitionFromJsonSchema({ ...declaration, outputSchema: tool.outputSchema }, importOptions);
    } catch (error) {
      definition = definitionFromJsonSchema(declaration, importOptions);
      options.warn(
        clientMessages.outputSchemaNotImported(
          options.server,
          tool.name,
          error instanceof Error ? error.message : String(error),
        ),
      );
    }
  }
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

/** Default of `maxResultChars`: about 25,000 tokens, what one tool result may put in the model's context. */
export const DEFAULT_MAX_RESULT_CHARS = 100_000;

/**
 * A successful `CallToolResult` as the value the executor returns:
 * - `structuredContent` when the server sent it with text blocks only (the text is its JSON, by the spec's
 *   backwards-compatibility rule), or when it is not an object (an array or a scalar, which a later protocol allows);
 * - an `McpContent` when some block is not text (an image, audio, a resource or a resource link): the blocks as its
 *   content (what the model reads) and the server's `structuredContent`, if any, beside them (what the application
 *   reads, and what the tool's output schema checks), so neither is lost;
 * - otherwise the text, the blocks joined by newlines.
 *
 * Never larger than `maxChars` characters in all (text, JSON of the structured content, base64 data of images and
 * audio): past it the value is cut and says so (a notice the model reads), so a server cannot fill the model's context
 * or this process's memory with one result. Structured content over the bound becomes its cut JSON text (a cut object
 * could fail the output schema); blocks share what the structured content leaves.
 */
export function valueOfResult(result: CallToolResult, maxChars: number = DEFAULT_MAX_RESULT_CHARS): unknown {
  const blocks = result.content ?? [];
  const allText = blocks.every((block) => block.type === 'text');
  if (result.structuredContent !== undefined) {
    const json = JSON.stringify(result.structuredContent);
    if (json.length > maxChars)
      return `${json.slice(0, maxChars)}\n${clientMessages.resultTruncated(json.length, maxChars)}`;
    const structured = result.structuredContent;
    // A `ToolContent` holds an object (what an output schema describes); a later protocol's array or scalar stays the value.
    if (allText || !isJsonObject(structured)) return structured;
    return new McpContent(boundedBlocks(blocks, maxChars - json.length), structured);
  }
  if (allText) {
    let total = 0;
    for (const block of blocks) total += (block as { text: string }).text.length + 1;
    if (total - 1 <= maxChars) return blocks.map((block) => (block as { text: string }).text).join('\n');
    return `${joinTexts(blocks, maxChars)}\n${clientMessages.resultTruncated(total - 1, maxChars)}`;
  }
  return new McpContent(boundedBlocks(blocks, maxChars));
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first `maxChars` characters of the texts joined by newlines, without building the whole join. */
function joinTexts(blocks: ReadonlyArray<{ text: string }>, maxChars: number): string {
  const parts: string[] = [];
  let left = maxChars;
  for (const block of blocks) {
    if (left <= 0) break;
    const part = parts.length === 0 ? block.text : `\n${block.text}`;
    parts.push(part.slice(0, left));
    left -= part.length;
  }
  return parts.join('');
}

/** How many characters a block puts in the context (its text, its base64 data, its JSON otherwise). */
function sizeOfBlock(block: ContentBlock): number {
  switch (block.type) {
    case 'text':
      return block.text.length;
    case 'image':
    case 'audio':
      return block.data.length;
    case 'resource': {
      const resource = block.resource as { text?: unknown; blob?: unknown };
      return typeof resource.text === 'string'
        ? resource.text.length
        : typeof resource.blob === 'string'
          ? resource.blob.length
          : JSON.stringify(block).length;
    }
    default:
      return JSON.stringify(block).length;
  }
}

/** Blocks while they fit in `maxChars`: a text block that does not fit is cut, any other is left out; a notice ends the list. */
function boundedBlocks(blocks: readonly ContentBlock[], maxChars: number): ContentBlock[] {
  const total = blocks.reduce((sum, block) => sum + sizeOfBlock(block), 0);
  if (total <= maxChars) return [...blocks];
  const kept: ContentBlock[] = [];
  let used = 0;
  let dropped = 0;
  for (const block of blocks) {
    const size = sizeOfBlock(block);
    if (used + size <= maxChars) {
      kept.push(block);
      used += size;
    } else if (block.type === 'text' && used < maxChars) {
      kept.push({ ...block, text: block.text.slice(0, maxChars - used) });
      used = maxChars;
    } else dropped++;
  }
  kept.push({ type: 'text', text: clientMessages.blocksDropped(dropped, total, used) });
  return kept;
}

/** The text of an `isError` result, for the model. */
export function errorTextOfResult(result: CallToolResult): string {
  const texts = (result.content ?? [])
    .filter((block) => block.type === 'text')
    .map((block) => (block as { text: string }).text);
  return texts.length > 0 ? texts.join('\n') : 'the server gave no message';
}
