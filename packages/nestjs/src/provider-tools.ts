import { BadRequestException, Injectable } from '@nestjs/common';
import { ToolRegistry } from '@toolwright/core';
import { getProvider, getProviders, type ParsedToolCall, type ProviderId, type ToolSet } from '@toolwright/providers';
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

type Parser = (payload: never, options: { toolSet: ToolSet<unknown> }) => ParsedToolCall[];

const PARSERS: Readonly<Record<ProviderId, Parser>> = {
  openai: openai.parseToolCalls,
  'openai-responses': openaiResponses.parseToolCalls,
  anthropic: anthropic.parseToolCalls,
  gemini: gemini.parseToolCalls,
  mistral: mistral.parseToolCalls,
  ollama: ollama.parseToolCalls,
  bedrock: bedrock.parseToolCalls,
  cohere: cohere.parseToolCalls,
  mcp: mcp.parseToolCalls,
  hermes: hermes.parseToolCalls,
};

/**
 * The registry in each provider's format, for controllers: the tool definitions to send (`GET /tools?provider=openai`)
 * and provider-shaped calls turned into `ToolCall`s with names decoded against the same tool set. One tool set per
 * provider, rebuilt when the registry changes.
 */
@Injectable()
export class ProviderTools {
  private readonly toolSets = new Map<ProviderId, { readonly version: number; readonly toolSet: ToolSet<unknown> }>();

  constructor(private readonly registry: ToolRegistry) {}

  /** Every provider id (`openai`, `anthropic`, ...). */
  providers(): readonly ProviderId[] {
    return getProviders().map((descriptor) => descriptor.id);
  }

  /** The provider id, or a 400 naming the valid ones (for a query parameter a client sent). */
  providerFrom(value: unknown): ProviderId {
    if (typeof value === 'string' && Object.hasOwn(PARSERS, value)) return value as ProviderId;
    throw new BadRequestException(
      `Unknown provider ${JSON.stringify(value)}; use one of: ${this.providers().join(', ')}.`,
    );
  }

  toolSet(provider: ProviderId): ToolSet<unknown> {
    const cached = this.toolSets.get(provider);
    if (cached !== undefined && cached.version === this.registry.version) return cached.toolSet;
    const toolSet = getProvider(provider).createToolSet(this.registry);
    this.toolSets.set(provider, { version: this.registry.version, toolSet });
    return toolSet;
  }

  /** The tool definitions for a provider, as its API takes them. */
  definitions(provider: ProviderId): unknown[] {
    return this.toolSet(provider).tools;
  }

  /**
   * The calls in a provider-shaped payload (an OpenAI `tool_calls` array or message, an Anthropic content array, ...;
   * Hermes: the text) as `ToolCall`s for `executor.execute`. A payload the provider's parser cannot read (the wrong
   * type, a `null` where a call or a list belongs) is a 400 `BadRequestException`, never a `TypeError`; the
   * arguments are not validated here: the executor does that.
   */
  parseCalls(provider: ProviderId, payload: unknown): ParsedToolCall[] {
    const shape = provider === 'hermes' ? 'a string' : 'an object or an array';
    if (provider === 'hermes' ? typeof payload !== 'string' : typeof payload !== 'object' || payload === null) {
      throw new BadRequestException(`The ${provider} tool calls must be ${shape}.`);
    }
    const toolSet = this.toolSet(provider);
    try {
      return PARSERS[provider](payload as never, { toolSet });
    } catch (error) {
      // The parsers read the provider's own response types; anything else that reaches them is the client's error.
      throw new BadRequestException(
        `The ${provider} tool calls could not be read: send ${shape} in the ${getProvider(provider).label} format (a tool call, a list of them or a response holding them; no null in place of one).`,
        { cause: error },
      );
    }
  }
}
