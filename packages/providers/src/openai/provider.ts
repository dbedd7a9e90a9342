/**
 * openai: the provider object (`defineProvider`): its rules, and its tools, calls and results as one typed spec.
 */
import { defineProvider } from '../shared/define-provider';
import { OPENAI_NAME_PROFILE } from '../shared/name-profiles';
import { strictModeFindings } from '../shared/strict-lint';
import { OPENAI_LIMITS, createToolSet, fromTool } from './tools';
import { createStreamAccumulator, parseToolCalls } from './calls';
import { toToolResultMessage, toToolResultMessages } from './results';

export const provider = defineProvider({
  id: 'openai',
  label: 'OpenAI Chat Completions',
  module: '@toolwright/providers/openai',
  nameProfile: OPENAI_NAME_PROFILE,
  limits: OPENAI_LIMITS,
  argumentsEncoding: 'json-text',
  errorChannel: undefined,
  supportsStrict: true,
  tools: {
    createToolSet,
    parametersOf: (tool) => tool.function.parameters,
    nameOf: (tool) => tool.function.name,
    lint: (lowered, options) => (options.strict ? strictModeFindings('openai', lowered) : []),
    fromTool,
  },
  calls: { parse: parseToolCalls, createStreamAccumulator },
  results: { toMessage: toToolResultMessage, toMessages: toToolResultMessages },
});

/** The Chat Completions `tools` for a registry or definitions. Use `createToolSet` to keep the codec. */
export const toTools = provider.toTools;

/** The provider as the provider-neutral API lists it (`getProviders()`): the same object. */
export const descriptor = provider;
