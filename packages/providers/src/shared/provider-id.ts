/** Every provider this package speaks: the keys of the root's `PROVIDERS` table. */
export type ProviderId =
  | 'openai'
  | 'openai-responses'
  | 'anthropic'
  | 'gemini'
  | 'mistral'
  | 'ollama'
  | 'bedrock'
  | 'cohere'
  | 'mcp'
  | 'hermes';
