/**
 * ollama: the provider object (`defineProvider`): its rules, and its tools, calls and results as one typed spec.
 */
import { defineProvider } from '../shared/define-provider';
import { PORTABLE_NAME_PROFILE } from '../shared/name-profiles';
import { createToolSet, fromTool } from './tools';
import { createStreamAccumulator, parseToolCalls } from './calls';
import { toToolResultMessage } from './results';

export const provider = defineProvider({
  id: 'ollama',
  label: 'Ollama /api/chat',
  module: '@toolwright/providers/ollama',
  nameProfile: PORTABLE_NAME_PROFILE,
  limits: Object.freeze({ rootUnionsRejected: false }),
  argumentsEncoding: 'object',
  errorChannel: undefined,
  supportsStrict: false,
  tools: {
    createToolSet,
    parametersOf: (tool) => tool.function.parameters,
    nameOf: (tool) => tool.function.name,
    fromTool,
  },
  calls: { parse: parseToolCalls, createStreamAccumulator },
  results: { toMessage: toToolResultMessage },
});

/** The provider's tool definitions for a registry or definitions (`createToolSet(...).tools`). */
export const toTools = provider.toTools;

/** One result message per result, in order. */
export const toToolResultMessages = provider.results.toMessages;

/** The provider as the provider-neutral API lists it (`getProviders()`): the same object. */
export const descriptor = provider;
