/**
 * mistral: the provider object (`defineProvider`): its rules, and its tools, calls and results as one typed spec.
 */
import { defineProvider } from '../shared/define-provider';
import { strictModeFindings } from '../shared/strict-lint';
import { MISTRAL_NAME_PROFILE, createToolSet, fromTool } from './tools';
import { createStreamAccumulator, parseToolCalls } from './calls';
import { toToolResultMessage, toToolResultMessages } from './results';

export const provider = defineProvider({
  id: 'mistral',
  label: 'Mistral',
  module: '@toolwright/providers/mistral',
  nameProfile: MISTRAL_NAME_PROFILE,
  limits: Object.freeze({ rootUnionsRejected: false }),
  argumentsEncoding: 'json-text',
  errorChannel: undefined,
  supportsStrict: true,
  tools: {
    createToolSet,
    parametersOf: (tool) => tool.function.parameters,
    nameOf: (tool) => tool.function.name,
    lint: (lowered, options) => (options.strict ? strictModeFindings('mistral', lowered) : []),
    fromTool,
  },
  calls: { parse: parseToolCalls, createStreamAccumulator },
  results: { toMessage: toToolResultMessage, toMessages: toToolResultMessages },
});

/** The provider's tool definitions for a registry or definitions (`createToolSet(...).tools`). */
export const toTools = provider.toTools;

/** The provider as the provider-neutral API lists it (`getProviders()`): the same object. */
export const descriptor = provider;
