import type { ToolResult } from '@toolwright/core';
import {
  getProvider,
  type ParsedToolCall,
  type ProviderId,
  type ToolRegistryLike,
  type ToolSetContext,
} from '@toolwright/providers';
import * as anthropic from '@toolwright/providers/anthropic';
import * as bedrock from '@toolwright/providers/bedrock';
import * as cohere from '@toolwright/providers/cohere';
import * as gemini from '@toolwright/providers/gemini';
import * as hermes from '@toolwright/providers/hermes';
import * as mcp from '@toolwright/providers/mcp';
import * as mistral from '@toolwright/providers/mistral';
import * as ollama from '@toolwright/providers/ollama';
import * as openai from '@toolwright/providers/openai';
import * as openaiResponses from '@toolwright/providers/openai-responses';

/** Each provider's call parser and result message, as the application would use them (nothing re-implemented here). */
interface ProviderCalls {
  parse(input: unknown, toolSet: ToolSetContext): ParsedToolCall[];
  resultMessage(result: ToolResult, toolSet: ToolSetContext): unknown;
}

const asObject = (input: unknown): object => (typeof input === 'object' && input !== null ? input : {});

export const PROVIDER_CALLS: Readonly<Record<ProviderId, ProviderCalls>> = {
  openai: {
    parse: (input, toolSet) => openai.parseToolCalls(asObject(input), { toolSet }),
    resultMessage: (result) => openai.toToolResultMessage(result),
  },
  'openai-responses': {
    parse: (input, toolSet) => openaiResponses.parseToolCalls(asObject(input), { toolSet }),
    resultMessage: (result) => openaiResponses.toToolResultMessage(result),
  },
  anthropic: {
    parse: (input, toolSet) => anthropic.parseToolCalls(asObject(input), { toolSet }),
    resultMessage: (result) => anthropic.toToolResultMessage(result),
  },
  gemini: {
    parse: (input, toolSet) => gemini.parseToolCalls(asObject(input), { toolSet }),
    resultMessage: (result) => gemini.toToolResultMessage(result),
  },
  bedrock: {
    parse: (input, toolSet) => bedrock.parseToolCalls(asObject(input), { toolSet }),
    resultMessage: (result) => bedrock.toToolResultMessage(result),
  },
  cohere: {
    parse: (input, toolSet) => cohere.parseToolCalls(asObject(input), { toolSet }),
    resultMessage: (result) => cohere.toToolResultMessage(result),
  },
  ollama: {
    parse: (input, toolSet) => ollama.parseToolCalls(asObject(input), { toolSet }),
    resultMessage: (result, toolSet) => ollama.toToolResultMessage(result, { toolSet }),
  },
  mistral: {
    parse: (input, toolSet) => mistral.parseToolCalls(asObject(input), { toolSet }),
    resultMessage: (result) => mistral.toToolResultMessage(result),
  },
  mcp: {
    parse: (input, toolSet) => mcp.parseToolCalls(asObject(input), { toolSet }),
    resultMessage: (result) => mcp.toToolResultMessage(result),
  },
  hermes: {
    parse: (input, toolSet) => (typeof input === 'string' ? hermes.parseToolCalls(input, { toolSet }) : []),
    resultMessage: (result) => hermes.toToolResultMessage(result),
  },
};

/** Shapes tried by auto-detection, most specific first (MCP's `{name, arguments}` matches almost any object, so it is last). */
export const DETECTION_ORDER: readonly ProviderId[] = [
  'openai',
  'openai-responses',
  'anthropic',
  'gemini',
  'bedrock',
  'cohere',
  'ollama',
  'mistral',
  'mcp',
];

/** The provider's tool set for a registry: its name codec decodes the names the model used. */
export function toolSetFor(registry: ToolRegistryLike, provider: ProviderId): ToolSetContext {
  return getProvider(provider).createToolSet(registry);
}
