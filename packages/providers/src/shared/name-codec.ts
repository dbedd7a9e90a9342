/**
 * A reversible tool-name codec for one tool set and one provider's name rule.
 *
 * Registry names are kept exactly as the developer wrote them (`decision/propose`, `math.factorial`, an
 * 80-character name, unicode); providers accept far less. For each name, in this order:
 *   1. identity: the name already satisfies the rule;
 *   2. readable: diacritics stripped, each run of other characters replaced by `_` (`math.factorial` ->
 *      `math_factorial`), used when no other tool of the set would get the same name;
 *   3. hashed: the readable form cut to fit, plus `_` and 8 hex characters of the SHA-256 of the original
 *      name (`<prefix>_1a2b3c4d`), for names that are too long or ambiguous in the set.
 * Decoding is exact (a map built at encoding time). Two tools that still end up with one name are a
 * DefinitionError naming both.
 */
import { DefinitionError } from '@toolwright/core';
import { hexDigest } from './hash';
import { matchesProfile, type ToolNameProfile } from './name-profiles';

export type NameEncodingStrategy = 'identity' | 'readable' | 'hashed';

export interface EncodedToolName {
  /** The registry name. */
  readonly name: string;
  /** The name the provider sees. */
  readonly encoded: string;
  readonly strategy: NameEncodingStrategy;
}

export interface ToolNameCodecOptions {
  /**
   * What to do when two names have the same readable form (`math.factorial` and `math/factorial`):
   * `hash` (default) gives each a hashed name; `error` throws a DefinitionError naming both tools.
   */
  readonly onAmbiguity?: 'hash' | 'error';
}

const HASH_LENGTH = 8;

export class ToolNameCodec {
  private readonly byName: ReadonlyMap<string, EncodedToolName>;
  private readonly byEncoded: ReadonlyMap<string, EncodedToolName>;

  private constructor(
    readonly profile: ToolNameProfile,
    entries: readonly EncodedToolName[],
  ) {
    this.byName = new Map(entries.map((entry) => [entry.name, entry]));
    this.byEncoded = new Map(entries.map((entry) => [entry.encoded, entry]));
  }

  /** Builds the codec of a tool set. Throws a DefinitionError for duplicate names and unresolvable collisions. */
  static create(names: Iterable<string>, profile: ToolNameProfile, options: ToolNameCodecOptions = {}): ToolNameCodec {
    const unique: string[] = [];
    const seen = new Set<string>();
    for (const name of names) {
      if (seen.has(name)) {
        throw new DefinitionError(`two tools are named "${name}" in one tool set`, {
          target: name,
          fix: 'give every tool of a tool set its own name',
        });
      }
      seen.add(name);
      unique.push(name);
    }

    const assigned = new Map<string, EncodedToolName>();
    const entryOf = new Map<string, EncodedToolName>();
    const claim = (entry: EncodedToolName): void => {
      const other = assigned.get(entry.encoded);
      if (other) {
        throw new DefinitionError(
          `tools "${other.name}" and "${entry.name}" both encode to "${entry.encoded}" for ${profile.id} (${profile.rule})`,
          { target: entry.name, fix: `rename one of "${other.name}" and "${entry.name}"` },
        );
      }
      assigned.set(entry.encoded, entry);
      entryOf.set(entry.name, entry);
    };

    const needsEncoding: string[] = [];
    for (const name of unique) {
      if (matchesProfile(name, profile)) claim({ name, encoded: name, strategy: 'identity' });
      else needsEncoding.push(name);
    }

    const readableOf = new Map<string, string | undefined>();
    const readableCount = new Map<string, string[]>();
    for (const name of needsEncoding) {
      const readable = readableForm(name, profile);
      readableOf.set(name, readable);
      if (readable !== undefined) readableCount.set(readable, [...(readableCount.get(readable) ?? []), name]);
    }

    for (const name of needsEncoding) {
      const readable = readableOf.get(name);
      const sharing = readable === undefined ? [] : (readableCount.get(readable) ?? []);
      const clashesWithIdentity = readable !== undefined && assigned.has(readable);
      const ambiguous = sharing.length > 1 || clashesWithIdentity;
      if (readable !== undefined && !ambiguous) {
        claim({ name, encoded: readable, strategy: 'readable' });
        continue;
      }
      if (readable !== undefined && ambiguous && options.onAmbiguity === 'error') {
        const other = clashesWithIdentity
          ? assigned.get(readable)?.name
          : sharing.find((candidate) => candidate !== name);
        throw new DefinitionError(
          `tools "${name}" and "${other ?? '?'}" both become "${readable}" under ${profile.id}'s name rule (${profile.rule})`,
          { target: name, fix: `rename one of them, or use the codec's default onAmbiguity: 'hash'` },
        );
      }
      claim({ name, encoded: hashedForm(name, readable, profile), strategy: 'hashed' });
    }

    return new ToolNameCodec(
      profile,
      unique.map((name) => entryOf.get(name)).filter((entry): entry is EncodedToolName => entry !== undefined),
    );
  }

  /** The provider name of a registry name of this set. */
  encode(name: string): string {
    const entry = this.byName.get(name);
    if (!entry) {
      throw new DefinitionError(`tool "${name}" is not part of this tool set's name codec`, {
        target: name,
        fix: 'build the codec from the same tools you send (createToolSet or toTools without a codec does this)',
      });
    }
    return entry.encoded;
  }

  /** The registry name of a provider name; a name the codec does not know is returned unchanged. */
  decode(providerName: string): string {
    return this.byEncoded.get(providerName)?.name ?? providerName;
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** Every name of the set with its encoding, in the order given. */
  entries(): readonly EncodedToolName[] {
    return [...this.byName.values()];
  }
}

/**
 * The readable form of a name under a profile, or `undefined` when there is none (too long, or nothing
 * alphanumeric left).
 */
export function readableForm(name: string, profile: ToolNameProfile): string | undefined {
  const base = readableBase(name, profile);
  if (base === undefined) return undefined;
  return matchesProfile(base, profile) ? base : undefined;
}

function readableBase(name: string, profile: ToolNameProfile): string | undefined {
  const stripped = name.normalize('NFKD').replace(/\p{M}+/gu, '');
  let output = '';
  let replacing = false;
  for (const character of stripped) {
    if (profile.allowedCharacter.test(character)) {
      output += character;
      replacing = false;
    } else if (!replacing) {
      output += '_';
      replacing = true;
    }
  }
  if (!/[A-Za-z0-9]/.test(output)) return undefined;
  if (profile.firstCharacter && !profile.firstCharacter.test(Array.from(output)[0] ?? '')) output = `_${output}`;
  return output;
}

function hashedForm(name: string, readable: string | undefined, profile: ToolNameProfile): string {
  const suffix = `_${hexDigest(name, HASH_LENGTH)}`;
  const base = readable ?? readableBase(name, profile) ?? 'tool';
  const room = profile.maxLength - suffix.length;
  const prefix = Array.from(base).slice(0, room).join('');
  return `${prefix === '' ? 'tool'.slice(0, room) : prefix}${suffix}`;
}
