/**
 * Model Context Protocol shapes (spec 2025-11-25, `@modelcontextprotocol/sdk` 1.x): `tools/list` entries
 * `{name, title?, description?, inputSchema, annotations?}` (names SHOULD match `^[A-Za-z0-9._-]{1,128}$`; the
 * schema is JSON Schema 2020-12, verbatim), `tools/call` requests with object `arguments`, and `CallToolResult`
 * `{content, structuredContent?, isError?}` with tool errors as `isError: true`. The MCP client and server
 * themselves live in `@toolwright/mcp`; this module is the format only. Reference: provider-formats.md §9.
 */
import type { ToolAnnotations, ToolDefinition, ToolResult } from '@toolwright/core';
import { includes, resolveApiVersion } from '../shared/api-versions';
import { CallBuilder, objectArguments, type ParsedToolCall, type ParseToolCallsOptions } from '../shared/calls';
import type { ToolSource } from '../shared/definitions';
import { importToolDefinition, type ImportOptions } from '../shared/import-definition';
import { isPlainObject, type JsonObject, type JsonSchema } from '../shared/json-schema';
import { restoreNotes } from '../shared/lowering/reverse';
import { MCP_NAME_PROFILE } from '../shared/name-profiles';
import type { ProviderDescriptor } from '../shared/provider';
import { asRecord, recordAt, stringAt, valueAt } from '../shared/read';
import { errorMessageText, successText, toJsonValue } from '../shared/results';
import { buildToolSet, type ToolSet, type ToolSetOptions } from '../shared/tool-set';

export type { ParsedToolCall, ParseToolCallsOptions } from '../shared/calls';
export type { ToolSet, ToolSetOptions } from '../shared/tool-set';

/** The `inputSchema` of an MCP tool: an object schema. */
export interface McpInputSchema {
  type: 'object';
  properties?: Record<string, object>;
  required?: string[];
  [keyword: string]: unknown;
}

/** A `tools/list` entry (`Tool`). */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: McpInputSchema;
  annotations?: ToolAnnotations & { title?: string };
}

/** Protocol versions that changed the `Tool` shape: `annotations` (2025-03-26), a top-level `title` (2025-06-18). */
const ANNOTATIONS_SINCE = '2025-03-26';
const TITLE_SINCE = '2025-06-18';

export function createToolSet(source: ToolSource, options: ToolSetOptions = {}): ToolSet<McpTool> {
  const version = resolveApiVersion('mcp', options.version);
  const topLevelTitle = includes(version, TITLE_SINCE);
  const withAnnotations = includes(version, ANNOTATIONS_SINCE);
  return buildToolSet({
    provider: 'mcp',
    source,
    profile: MCP_NAME_PROFILE,
    options,
    strict: false,
    lower: ({ definition, name, description, parameters }) => {
      const title = withAnnotations ? definition.options.title : undefined;
      const tool: McpTool = {
        name,
        ...(title !== undefined && topLevelTitle ? { title } : {}),
        ...(description !== undefined ? { description } : {}),
        inputSchema: { ...parameters, type: 'object' } as McpInputSchema,
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

/** The `tools/list` result's `tools`. */
export function toTools(source: ToolSource, options: ToolSetOptions = {}): McpTool[] {
  return createToolSet(source, options).tools;
}

/**
 * The calls of `tools/call` requests: a JSON-RPC request (`{id, method: "tools/call", params}`), its `params`
 * (`{name, arguments}`), or an array of either. The call id is the JSON-RPC id (params alone get a generated id).
 */
export function parseToolCalls(request: object | readonly object[], options: ParseToolCallsOptions = {}): ParsedToolCall[] {
  const requests = Array.isArray(request) ? request : [request];
  const builder = new CallBuilder(options);
  const calls: ParsedToolCall[] = [];
  for (const item of requests) {
    const method = stringAt(item, 'method');
    if (method !== undefined && method !== 'tools/call') continue;
    const params = recordAt(item, 'params') ?? asRecord(item);
    const name = stringAt(params, 'name');
    if (name === undefined) continue;
    const rawId = valueAt(item, 'id');
    const id = typeof rawId === 'string' || typeof rawId === 'number' ? String(rawId) : undefined;
    calls.push(builder.build(id, name, objectArguments(valueAt(params, 'arguments') ?? {})));
  }
  return calls;
}

/** `CallToolResult`. */
export interface McpCallToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: JsonObject;
  isError?: boolean;
}

/**
 * A result as `CallToolResult`: the value as text (JSON for non-strings) plus `structuredContent` when it is an
 * object; an error as `isError: true` with its message (tool errors, including invalid arguments, go to the model
 * this way; protocol errors such as an unknown tool are the server's JSON-RPC errors).
 */
export function toToolResultMessage(result: ToolResult): McpCallToolResult {
  if (!result.ok) return { content: [{ type: 'text', text: errorMessageText(result.error) }], isError: true };
  const output: McpCallToolResult = { content: [{ type: 'text', text: successText(result.value) }] };
  const json = toJsonValue(result.value);
  if (isPlainObject(json)) output.structuredContent = json as JsonObject;
  output.isError = false;
  return output;
}

export function toToolResultMessages(results: readonly ToolResult[]): McpCallToolResult[] {
  return results.map((result) => toToolResultMessage(result));
}

/** Imports an MCP tool (title and annotations included) into the IR. */
export function fromTool(tool: McpTool, options: ImportOptions = {}): ToolDefinition {
  const { title: annotationTitle, ...hints } = tool.annotations ?? {};
  const title = tool.title ?? annotationTitle;
  return importToolDefinition(tool.name, tool.description, restoreNotes(tool.inputSchema as JsonSchema), options, {
    ...(title !== undefined ? { title } : {}),
    ...(Object.keys(hints).length > 0 ? { annotations: hints } : {}),
  });
}

export const descriptor: ProviderDescriptor = {
  id: 'mcp',
  label: 'Model Context Protocol',
  module: '@toolwright/providers/mcp',
  nameProfile: MCP_NAME_PROFILE,
  limits: Object.freeze({ rootUnionsRejected: false }),
  argumentsEncoding: 'object',
  errorChannel: 'isError',
  supportsStrict: false,
  createToolSet: (source, options) => createToolSet(source, options as ToolSetOptions | undefined),
  parametersOf: (tool) => (tool as McpTool).inputSchema,
  nameOf: (tool) => (tool as McpTool).name,
};
