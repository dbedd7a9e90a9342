/**
 * openai-responses: the provider object (`defineProvider`): its rules, and its tools, calls and results as one typed spec.
 */
import { defineProvider } from '../shared/define-provider';
import { OPENAI_NAME_PROFILE } from '../shared/name-profiles';
import { strictModeFindings } from '../shared/strict-lint';
import { OPENAI_RESPONSES_LIMITS, createToolSet, fromTool } from './tools';
import { createStreamAccumulator, parseToolCalls } from './calls';
import { toToolResultMessage } from './results';

export const provider = defineProvider({
  id: 'openai-responses',
  label: 'OpenAI Responses',
  module: '@toolwright/providers/openai-responses',
  nameProfile: OPENAI_NAME_PROFILE,
  limits: OPENAI_RESPONSES_LIMITS,
  argumentsEncoding: 'json-text',
  errorChannel: undefined,
  supportsStrict: true,
  tools: {
    createToolSet,
    parametersOf: (tool) => tool.parameters ?? undefined,
    nameOf: (tool) => tool.name,
    lint: (lowered, options) => (options.strict ? strictModeFindings('openai-responses', lowered) : []),
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
