/**
 * mcp: the provider object (`defineProvider`): its rules, and its tools, calls and results as one typed spec.
 */
import { defineProvider } from '../shared/define-provider';
import { MCP_NAME_PROFILE } from '../shared/name-profiles';
import { createToolSet, fromTool } from './tools';
import { parseToolCalls } from './calls';
import { toToolResultMessage } from './results';

export const provider = defineProvider({
  id: 'mcp',
  label: 'Model Context Protocol',
  module: '@toolwright/providers/mcp',
  nameProfile: MCP_NAME_PROFILE,
  limits: Object.freeze({ rootUnionsRejected: false }),
  argumentsEncoding: 'object',
  errorChannel: 'isError',
  supportsStrict: false,
  tools: {
    createToolSet,
    parametersOf: (tool) => tool.inputSchema,
    nameOf: (tool) => tool.name,
    fromTool,
  },
  calls: { parse: parseToolCalls },
  results: { toMessage: toToolResultMessage },
});

/** The `tools/list` result's `tools`. */
export const toTools = provider.toTools;

/** One result message per result, in order. */
export const toToolResultMessages = provider.results.toMessages;

/** The provider as the provider-neutral API lists it (`getProviders()`): the same object. */
export const descriptor = provider;
