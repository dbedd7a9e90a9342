/**
 * Tool-call ids in each provider's format. Ids cross providers when a conversation is replayed against another
 * model (`call_…` from OpenAI, `toolu_…` from Anthropic, `functions.Bash:0` from others) and some providers
 * validate them: Mistral wants exactly 9 alphanumeric characters, Anthropic `^[a-zA-Z0-9_-]+$`, Bedrock 1-64
 * of the same. A `CallIdCodec` maps an id to the provider's format (deterministically: the same id always gives
 * the same provider id) and remembers the mapping so the provider's id maps back to the original.
 */
import { base62Digest, hexDigest, randomBase62 } from './hash';

export interface CallIdProfile {
  readonly id: string;
  /** The rule as people read it. */
  readonly rule: string;
  readonly pattern: RegExp;
  /** A valid id derived from any id (deterministic). */
  derive(id: string): string;
}

/** Mistral: `^[a-zA-Z0-9]{9}$`. */
export const MISTRAL_CALL_ID_PROFILE: CallIdProfile = Object.freeze({
  id: 'mistral',
  rule: '^[a-zA-Z0-9]{9}$',
  pattern: /^[a-zA-Z0-9]{9}$/,
  derive: (id: string) => base62Digest(id, 9),
});

function sanitizedId(id: string, maxLength: number): string {
  const sanitized = id.replace(/[^a-zA-Z0-9_-]/g, '_');
  if (sanitized !== '' && sanitized.length <= maxLength && sanitized === id) return sanitized;
  const suffix = `_${hexDigest(id, 8)}`;
  const base = sanitized.slice(0, maxLength - suffix.length);
  return `${base === '' ? 'call' : base}${suffix}`;
}

/** Anthropic: `^[a-zA-Z0-9_-]+$` (kept to 64 characters). */
export const ANTHROPIC_CALL_ID_PROFILE: CallIdProfile = Object.freeze({
  id: 'anthropic',
  rule: '^[a-zA-Z0-9_-]+$',
  pattern: /^[a-zA-Z0-9_-]{1,64}$/,
  derive: (id: string) => sanitizedId(id, 64),
});

/** Bedrock Converse: `toolUseId` 1-64 of `[a-zA-Z0-9_-]`. */
export const BEDROCK_CALL_ID_PROFILE: CallIdProfile = Object.freeze({
  id: 'bedrock',
  rule: '^[a-zA-Z0-9_-]{1,64}$',
  pattern: /^[a-zA-Z0-9_-]{1,64}$/,
  derive: (id: string) => sanitizedId(id, 64),
});

/** Maps ids into one provider's format and back. One instance per conversation (or longer-lived). */
export class CallIdCodec {
  private readonly toProviderIds = new Map<string, string>();
  private readonly fromProviderIds = new Map<string, string>();

  constructor(readonly profile: CallIdProfile) {}

  /** The id to send to the provider: the id itself when it is valid, a derived valid id otherwise. */
  toProvider(id: string): string {
    const known = this.toProviderIds.get(id);
    if (known !== undefined) return known;
    let providerId = this.profile.pattern.test(id) ? id : this.profile.derive(id);
    // A derived id that is already taken by another original id: derive again from a salted id.
    for (
      let attempt = 1;
      this.fromProviderIds.has(providerId) && this.fromProviderIds.get(providerId) !== id;
      attempt += 1
    ) {
      providerId = this.profile.derive(`${id}#${attempt}`);
    }
    this.toProviderIds.set(id, providerId);
    this.fromProviderIds.set(providerId, id);
    return providerId;
  }

  /** The original id of a provider id this codec produced; any other id is returned unchanged. */
  fromProvider(providerId: string): string {
    return this.fromProviderIds.get(providerId) ?? providerId;
  }
}

/** The prefix of ids toolwright makes up for calls that arrived without one (Gemini, Qwen/Hermes, old Ollama). */
export const GENERATED_CALL_ID_PREFIX = 'toolwright_call_';

export function isGeneratedCallId(id: string): boolean {
  return id.startsWith(GENERATED_CALL_ID_PREFIX);
}

/** Makes the id of the `index`-th call of a response that carried none. */
export type CallIdFactory = (index: number) => string;

/** The default factory: `toolwright_call_<8 random base-62>_<index>`, unique across turns, ordered within one. */
export function createCallIdFactory(): CallIdFactory {
  const batch = randomBase62(8);
  return (index: number) => `${GENERATED_CALL_ID_PREFIX}${batch}_${index}`;
}
