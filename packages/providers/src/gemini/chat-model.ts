/**
 * A `ChatModel` over the official `@google/genai` client (`client.models.generateContent`), for the Gemini API and
 * Vertex AI alike. The client is given constructed; this module never imports the SDK.
 */
import type { ChatMessage } from '@toolwright/core';
import { ProviderChatModel, type ChatAnswer, type ChatTurnContext } from '../shared/provider-chat-model';
import { isGeneratedCallId } from '../shared/call-ids';
import {
  argumentsObject,
  calledNames,
  conversationParts,
  mergeAdjacentRoles,
  providerToolName,
  structuredResult,
  systemPrompt,
} from '../shared/chat-model-support';
import type { JsonObject } from '../shared/json-schema';
import { arrayAt, recordAt, stringAt, valueAt } from '../shared/read';
import type { ToolSet } from '../shared/tool-set';
import {
  allowedFunctionsConfig,
  createToolSet,
  type GeminiFunctionDeclaration,
  type GeminiToolConfig,
  type GeminiToolsOptions,
} from './tools';
import { parseToolCalls } from './calls';

/** What the adapter calls: `client.models.generateContent(params)`. The `GoogleGenAI` client has it. */
export interface GeminiModelsClient {
  readonly models: {
    generateContent(params: object): PromiseLike<object>;
  };
}

export interface GeminiChatModelOptions {
  /** A constructed `GoogleGenAI` client. */
  readonly client: GeminiModelsClient;
  /** `gemini-2.5-flash`, ... */
  readonly model: string;
  readonly temperature?: number;
  /** Sent as `config.maxOutputTokens`. */
  readonly maxTokens?: number;
  /** Tool set options: `schemaField` (`parameters`, the default, or `parametersJsonSchema`) and the name codec's. */
  readonly toolOptions?: GeminiToolsOptions;
  /** More `config` fields for every call (`toolConfig`, `thinkingConfig`, `safetySettings`, ...). */
  readonly config?: Readonly<Record<string, unknown>>;
}

/** A `Part` as this adapter sends it (replayed model turns are sent as the API returned them). */
export type GeminiRequestPart =
  | { text: string }
  | { functionCall: { id?: string; name: string; args: Record<string, unknown> } }
  | { functionResponse: { id?: string; name: string; response: JsonObject } }
  | Record<string, unknown>;

export interface GeminiRequestContent {
  role: 'user' | 'model';
  parts: GeminiRequestPart[];
}

export interface GeminiRequest {
  model: string;
  contents: GeminiRequestContent[];
  config: {
    tools?: Array<{ functionDeclarations: GeminiFunctionDeclaration[] }>;
    toolConfig?: GeminiToolConfig;
    systemInstruction?: string;
    temperature?: number;
    maxOutputTokens?: number;
    abortSignal?: AbortSignal;
    [field: string]: unknown;
  };
}

/**
 * Gemini as a `ChatModel`: system messages joined into `config.systemInstruction`; each model turn replayed exactly
 * as the API returned it (Gemini 3 rejects function calls without their thought signatures) or rebuilt as `text` and
 * `functionCall` parts; the results of one turn as `functionResponse` parts in one `user` turn, answering with the
 * name the model called and its id (generated ids are left out). A result is `response.output` (the value, whose
 * JSON is the loop's text), an error `response.error` holding exactly the loop's text.
 */
export class GeminiChatModel extends ProviderChatModel<GeminiFunctionDeclaration, GeminiRequest, object, object> {
  constructor(private readonly options: GeminiChatModelOptions) {
    super({ name: `gemini:${options.model}`, createToolSet: (tools) => createToolSet(tools, options.toolOptions) });
  }

  /** The `generateContent` parameters for these messages and tools (without the abort signal). */
  protected render(
    messages: readonly ChatMessage[],
    { toolSet }: ChatTurnContext<GeminiFunctionDeclaration>,
  ): GeminiRequest {
    const { options } = this;
    const systemInstruction = systemPrompt(messages);
    const toolConfig = allowedFunctionsConfig(toolSet);
    return {
      model: options.model,
      contents: this.contents(messages, toolSet),
      config: {
        ...options.config,
        ...(toolSet.tools.length > 0 ? { tools: [{ functionDeclarations: toolSet.tools }] } : {}),
        ...(toolConfig ? { toolConfig } : {}),
        ...(systemInstruction !== undefined ? { systemInstruction } : {}),
        ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
        ...(options.maxTokens !== undefined ? { maxOutputTokens: options.maxTokens } : {}),
      },
    };
  }

  protected send(parameters: GeminiRequest, signal: AbortSignal | undefined): PromiseLike<object> {
    if (signal) parameters.config.abortSignal = signal;
    return this.options.client.models.generateContent(parameters);
  }

  protected read(response: object, { toolSet }: ChatTurnContext<GeminiFunctionDeclaration>): ChatAnswer<object> {
    const candidate = arrayAt(response, 'candidates')[0];
    const content = recordAt(candidate, 'content');
    const parts = arrayAt(content, 'parts');
    const calls = parseToolCalls(parts, { toolSet });
    const text = parts
      .map((part) => (valueAt(part, 'thought') === true ? '' : (stringAt(part, 'text') ?? '')))
      .join('');
    return {
      text,
      calls,
      finishReason: stringAt(candidate, 'finishReason'),
      raw: response,
      ...(content ? { native: content } : {}),
    };
  }

  private contents(
    messages: readonly ChatMessage[],
    toolSet: ToolSet<GeminiFunctionDeclaration>,
  ): GeminiRequestContent[] {
    const names = calledNames(messages, toolSet.codec);
    const rendered = conversationParts(messages).flatMap((part): GeminiRequestContent[] => {
      switch (part.kind) {
        case 'system':
          return [];
        case 'user':
          return [{ role: 'user', parts: [{ text: part.content }] }];
        case 'assistant': {
          const replayed = this.nativeTurns.recall(part.message.toolCalls);
          if (replayed) return [{ role: 'model', parts: [...arrayAt(replayed, 'parts')] as GeminiRequestPart[] }];
          const parts: GeminiRequestPart[] = part.message.content ? [{ text: part.message.content }] : [];
          for (const call of part.message.toolCalls ?? []) {
            parts.push({
              functionCall: {
                ...(isGeneratedCallId(call.id) ? {} : { id: call.id }),
                name: providerToolName(toolSet.codec, call.name),
                args: argumentsObject(call.arguments),
              },
            });
          }
          return parts.length > 0 ? [{ role: 'model', parts }] : [];
        }
        case 'tool-results':
          return [
            {
              role: 'user',
              parts: part.results.map((message) => {
                const structured = structuredResult(message);
                const response: JsonObject = message.isError
                  ? { error: message.content }
                  : { output: structured !== undefined ? structured : message.content };
                return {
                  functionResponse: {
                    ...(isGeneratedCallId(message.callId) ? {} : { id: message.callId }),
                    name: names.get(message.callId) ?? providerToolName(toolSet.codec, message.tool),
                    response,
                  },
                };
              }),
            },
          ];
      }
    });
    return mergeAdjacentRoles(
      rendered,
      (content) => content.parts,
      (content, parts) => ({ ...content, parts }),
    );
  }
}
