/**
 * anthropic: the provider object (`defineProvider`): its rules, and its tools, calls and results as one typed spec.
 */
import { defineProvider } from '../shared/define-provider';
import { anthropicStrictFindings } from '../shared/strict-lint';
import { ANTHROPIC_NAME_PROFILE, createToolSet, fromTool } from './tools';
import { createStreamAccumulator, parseToolCalls } from './calls';
import { toToolResultMessage, toToolResultMessages } from './results';

export const provider = defineProvider({
  id: 'anthropic',
  label: 'Anthropic Messages',
  module: '@toolwright/providers/anthropic',
  nameProfile: ANTHROPIC_NAME_PROFILE,
  limits: Object.freeze({ rootUnionsRejected: true }),
  argumentsEncoding: 'object',
  errorChannel: 'is_error',
  supportsStrict: true,
  tools: {
    createToolSet,
    parametersOf: (tool) => tool.input_schema,
    nameOf: (tool) => tool.name,
    lint: (lowered, options) => (options.strict ? anthropicStrictFindings('anthropic', lowered) : []),
    fromTool,
  },
  calls: { parse: parseToolCalls, createStreamAccumulator },
  results: { toMessage: toToolResultMessage, toMessages: toToolResultMessages },
});

/** The provider's tool definitions for a registry or definitions (`createToolSet(...).tools`). */
export const toTools = provider.toTools;

/** The provider as the provider-neutral API lists it (`getProviders()`): the same object. */
export const descriptor = provider;
