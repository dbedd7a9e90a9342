/**
 * bedrock: the provider object (`defineProvider`): its rules, and its tools, calls and results as one typed spec.
 */
import { defineProvider } from '../shared/define-provider';
import { anthropicStrictFindings } from '../shared/strict-lint';
import { BEDROCK_NAME_PROFILE, createToolSet, fromTool } from './tools';
import { createStreamAccumulator, parseToolCalls } from './calls';
import { toToolResultMessage, toToolResultMessages } from './results';

export const provider = defineProvider({
  id: 'bedrock',
  label: 'AWS Bedrock Converse',
  module: '@toolwright/providers/bedrock',
  nameProfile: BEDROCK_NAME_PROFILE,
  limits: Object.freeze({ rootUnionsRejected: false }),
  argumentsEncoding: 'object',
  errorChannel: 'status: "error"',
  supportsStrict: true,
  tools: {
    createToolSet,
    parametersOf: (tool) => tool.toolSpec.inputSchema.json,
    nameOf: (tool) => tool.toolSpec.name,
    lint: (lowered, options) => (options.strict ? anthropicStrictFindings('bedrock', lowered) : []),
    fromTool,
  },
  calls: { parse: parseToolCalls, createStreamAccumulator },
  results: { toMessage: toToolResultMessage, toMessages: toToolResultMessages },
});

/** The provider's tool definitions for a registry or definitions (`createToolSet(...).tools`). */
export const toTools = provider.toTools;

/** The provider as the provider-neutral API lists it (`getProviders()`): the same object. */
export const descriptor = provider;
