/**
 * cohere: the provider object (`defineProvider`): its rules, and its tools, calls and results as one typed spec.
 */
import { defineProvider } from '../shared/define-provider';
import { PORTABLE_NAME_PROFILE } from '../shared/name-profiles';
import { cohereStrictFindings } from '../shared/strict-lint';
import { createToolSet, fromTool } from './tools';
import { createStreamAccumulator, parseToolCalls } from './calls';
import { toToolResultMessage } from './results';

export const provider = defineProvider({
  id: 'cohere',
  label: 'Cohere v2',
  module: '@toolwright/providers/cohere',
  nameProfile: PORTABLE_NAME_PROFILE,
  limits: Object.freeze({ rootUnionsRejected: false }),
  argumentsEncoding: 'json-text',
  errorChannel: undefined,
  supportsStrict: true,
  tools: {
    createToolSet,
    parametersOf: (tool) => tool.function.parameters,
    nameOf: (tool) => tool.function.name,
    lint: (lowered, options) => (options.strict ? cohereStrictFindings(lowered) : []),
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
