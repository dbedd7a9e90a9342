/**
 * Google Gemini (`@google/genai`, Gemini API and Vertex AI): one `Tool` holding `functionDeclarations`, each with
 * either `parameters` (the OpenAPI subset, see schema.ts; the default) or `parametersJsonSchema` (JSON Schema,
 * verbatim). Calls are `functionCall` parts with object `args` and an optional `id`; they stream whole (Vertex can
 * stream `partialArgs`, handled too). Results are `functionResponse` parts in one `user` turn, errors under
 * `response.error`. Reference: provider-formats.md §4.
 */
export * from './tools';
export * from './calls';
export * from './results';
export * from './provider';
export {
  GeminiChatModel,
  type GeminiModelsClient,
  type GeminiChatModelOptions,
  type GeminiRequestPart,
  type GeminiRequestContent,
  type GeminiRequest,
} from './chat-model';
