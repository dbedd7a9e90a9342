/**
 * hermes: the provider object (`defineProvider`): its rules, and its tools, calls and results as one typed spec.
 */
import { defineProvider } from '../shared/define-provider';
import { MCP_NAME_PROFILE } from '../shared/name-profiles';
import { createToolSet, fromTool } from './tools';
import { createStreamAccumulator, parseToolCalls } from './calls';
import { toToolResultMessage, toToolResultMessages } from './results';

export const provider = defineProvider({
  id: 'hermes',
  label: 'Qwen/Hermes text format',
  module: '@toolwright/providers/hermes',
  nameProfile: MCP_NAME_PROFILE,
  limits: Object.freeze({ rootUnionsRejected: false }),
  argumentsEncoding: 'text',
  errorChannel: undefined,
  supportsStrict: false,
  tools: {
    createToolSet,
    parametersOf: (tool) => tool.function.parameters,
    nameOf: (tool) => tool.function.name,
    fromTool,
  },
  calls: { parse: parseToolCalls, createStreamAccumulator },
  results: { toMessage: toToolResultMessage, toMessages: toToolResultMessages },
});

/** The provider's tool definitions for a registry or definitions (`createToolSet(...).tools`). */
export const toTools = provider.toTools;

/** The provider as the provider-neutral API lists it (`getProviders()`): the same object. */
export const descriptor = provider;
