/**
 * mcp: definitions out (lowering) and back in (`fromTool`).
 * The wire format is summarized in `./index.ts` (provider-formats.md §9).
 */
import type { ToolAnnotations, ToolDefinition } from '@toolwright/core';
import { includes, resolveApiVersion } from '../shared/api-versions';
import type { ToolSource } from '../shared/definitions';
import { importToolDefinition, type ImportOptions } from '../shared/import-definition';
import { type JsonSchema } from '../shared/json-schema';
import { restoreNotes } from '../shared/lowering/reverse';
import { MCP_NAME_PROFILE } from '../shared/name-profiles';
import { buildToolSet, type ToolSet, type ToolSetOptions } from '../shared/tool-set';

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

/** Imports an MCP tool (title and annotations included) into the IR. */
export function fromTool(tool: McpTool, options: ImportOptions = {}): ToolDefinition {
  const { title: annotationTitle, ...hints } = tool.annotations ?? {};
  const title = tool.title ?? annotationTitle;
  return importToolDefinition(tool.name, tool.description, restoreNotes(tool.inputSchema as JsonSchema), options, {
    ...(title !== undefined ? { title } : {}),
    ...(Object.keys(hints).length > 0 ? { annotations: hints } : {}),
  });
}
