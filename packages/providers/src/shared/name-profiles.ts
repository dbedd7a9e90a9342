/** What one provider accepts as a tool name. */
export interface ToolNameProfile {
  /** A short id used in messages (`openai`). */
  readonly id: string;
  /** The rule as people read it: `^[a-zA-Z0-9_-]{1,64}$`. */
  readonly rule: string;
  /** One allowed character (tested on single code points). */
  readonly allowedCharacter: RegExp;
  /** What the first character must be, when the provider says. */
  readonly firstCharacter?: RegExp;
  readonly maxLength: number;
}

export function matchesProfile(name: string, profile: ToolNameProfile): boolean {
  const characters = Array.from(name);
  if (characters.length === 0 || characters.length > profile.maxLength) return false;
  if (profile.firstCharacter && !profile.firstCharacter.test(characters[0] ?? '')) return false;
  return characters.every((character) => profile.allowedCharacter.test(character));
}

const WORD_OR_DASH = /^[a-zA-Z0-9_-]$/;

/** OpenAI Chat and Responses, Mistral, Bedrock, Anthropic (portable length): `^[a-zA-Z0-9_-]{1,64}$`. */
export const OPENAI_NAME_PROFILE: ToolNameProfile = Object.freeze({
  id: 'openai',
  rule: '^[a-zA-Z0-9_-]{1,64}$',
  allowedCharacter: WORD_OR_DASH,
  maxLength: 64,
});

/**
 * The portable profile `^[A-Za-z_][A-Za-z0-9_-]{0,63}$`: the intersection of every provider's rule. Used where a
 * provider documents no rule (Cohere, Ollama) or documents several (Gemini API vs Vertex).
 */
export const PORTABLE_NAME_PROFILE: ToolNameProfile = Object.freeze({
  id: 'portable',
  rule: '^[A-Za-z_][A-Za-z0-9_-]{0,63}$',
  allowedCharacter: WORD_OR_DASH,
  firstCharacter: /^[A-Za-z_]$/,
  maxLength: 64,
});

/** MCP (SEP-986) `^[A-Za-z0-9._-]{1,128}$`; also used for the Qwen/Hermes text format. */
export const MCP_NAME_PROFILE: ToolNameProfile = Object.freeze({
  id: 'mcp',
  rule: '^[A-Za-z0-9._-]{1,128}$',
  allowedCharacter: /^[A-Za-z0-9._-]$/,
  maxLength: 128,
});

/** A profile with a different maximum length (Anthropic's current 128, for example). */
export function withMaxLength(profile: ToolNameProfile, maxLength: number): ToolNameProfile {
  if (maxLength === profile.maxLength) return profile;
  return Object.freeze({
    ...profile,
    id: `${profile.id}-${maxLength}`,
    rule: profile.rule.replace(
      /\{(\d+),\d+\}\$$/,
      (_match, minimum: string) => `{${minimum},${maxLength - (profile.firstCharacter ? 1 : 0)}}$`,
    ),
    maxLength,
  });
}
