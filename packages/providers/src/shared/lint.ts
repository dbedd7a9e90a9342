/**
 * `lint`: every tool against every provider's limits, on what would actually be sent (the lowered tool set), so
 * a finding always describes real behaviour. Rules:
 *   name-pattern, name-length       a registry name the provider rejects (raw names), or an encoded one that fails
 *   name-collision, name-ambiguous  names the codec cannot keep apart, or keeps apart only with a hash suffix
 *   description-length              longer than the provider takes
 *   description-missing             empty (models choose tools by their description)
 *   tool-count                      more tools than one request may carry
 *   root-type, root-union           parameters whose root is not a plain object schema
 *   unsupported-keyword             keywords the lowering moved into the description (the executor still enforces them)
 *   strict-* / property-name        the provider's own checks (strict-mode limits, Gemini parameter names)
 */
import { DefinitionError, ToolwrightError, type ParamSchema, type ToolDefinition } from '@toolwright/core';
import { resolveDefinitions, type ToolSource } from './definitions';
import { ToolNameCodec } from './name-codec';
import { matchesProfile, type ToolNameProfile } from './name-profiles';
import type { LintFinding, ProviderDescriptor } from './provider';

export interface LintOptions {
  /**
   * Which names to check: `raw` (default) checks the registry names as written, so names the codec has to encode
   * (`math.factorial` for OpenAI) are reported as warnings with the encoded name; `encoded` checks what the codec
   * produces (what is actually sent), which passes for every name the codec can encode.
   */
  readonly names?: 'raw' | 'encoded';
  /** Lint the strict variants too: `true` for every provider that has one, or per provider. Default false. */
  readonly strict?: boolean | Readonly<Partial<Record<string, boolean>>>;
}

function invalidCharacters(name: string, profile: ToolNameProfile): string[] {
  const found = new Set<string>();
  const characters = Array.from(name);
  characters.forEach((character, index) => {
    const allowed =
      index === 0 && profile.firstCharacter
        ? profile.firstCharacter.test(character)
        : profile.allowedCharacter.test(character);
    if (!allowed) found.add(character);
  });
  return [...found];
}

function nameFindings(
  descriptor: ProviderDescriptor,
  definitions: readonly ToolDefinition[],
  options: LintOptions,
): LintFinding[] {
  const profile = descriptor.nameProfile;
  const findings: LintFinding[] = [];
  let codec: ToolNameCodec;
  try {
    codec = ToolNameCodec.create(
      definitions.map((definition) => definition.name),
      profile,
    );
  } catch (error) {
    if (!ToolwrightError.isInstance(error)) throw error;
    const target = error instanceof DefinitionError && error.target ? error.target : '*';
    return [
      {
        tool: target,
        provider: descriptor.id,
        rule: 'name-collision',
        message: error.message,
        fix: 'rename one of the tools',
        severity: 'error',
      },
    ];
  }
  for (const entry of codec.entries()) {
    const name = entry.name;
    if (options.names === 'encoded') {
      if (!matchesProfile(entry.encoded, profile)) {
        findings.push({
          tool: name,
          provider: descriptor.id,
          rule: 'name-pattern',
          message: `the encoded name "${entry.encoded}" does not match ${descriptor.label}'s name rule ${profile.rule}`,
          fix: 'rename the tool',
          severity: 'error',
        });
      }
    } else if (entry.strategy !== 'identity') {
      const length = Array.from(name).length;
      const characters = invalidCharacters(name, profile);
      const tooLong = length > profile.maxLength;
      findings.push({
        tool: name,
        provider: descriptor.id,
        rule: tooLong && characters.length === 0 ? 'name-length' : 'name-pattern',
        message:
          `"${name}" does not match ${descriptor.label}'s name rule ${profile.rule}` +
          (characters.length > 0
            ? ` (it contains ${characters.map((character) => JSON.stringify(character)).join(', ')})`
            : '') +
          (tooLong ? ` (${length} characters, at most ${profile.maxLength})` : ''),
        fix: `nothing to do when you send tools with toolwright: it is sent as "${entry.encoded}" and decoded back; rename the tool to send it unchanged`,
        // The codec handles it: information, not a warning.
        severity: 'info',
      });
    }
    if (entry.strategy === 'hashed') {
      findings.push({
        tool: name,
        provider: descriptor.id,
        rule: 'name-ambiguous',
        message: `"${name}" is sent to ${descriptor.label} as "${entry.encoded}": its readable form is too long or taken by another tool of the set`,
        fix: 'shorten or rename the tool so its readable form is unique',
        severity: 'info',
      });
    }
  }
  return findings;
}

function strictFor(options: LintOptions, descriptor: ProviderDescriptor): boolean {
  if (!descriptor.supportsStrict) return false;
  if (typeof options.strict === 'boolean') return options.strict;
  return options.strict?.[descriptor.id] ?? false;
}

/** Lints a tool set against the given providers. */
export function lintWith(
  descriptors: readonly ProviderDescriptor[],
  source: ToolSource,
  options: LintOptions = {},
): LintFinding[] {
  const definitions = resolveDefinitions(source);
  const findings: LintFinding[] = [];
  for (const descriptor of descriptors) {
    findings.push(...nameFindings(descriptor, definitions, options));
    const limits = descriptor.limits;
    if (limits.maxTools !== undefined && definitions.length > limits.maxTools) {
      findings.push({
        tool: '*',
        provider: descriptor.id,
        rule: 'tool-count',
        message: `${definitions.length} tools; ${descriptor.label} takes at most ${limits.maxTools} per request`,
        fix: 'send a relevant subset per request (by persona, tag or a tool-search step)',
        severity: 'error',
      });
    }
    for (const definition of definitions) {
      for (const [path, format] of unenforcedFormats(definition.parameters, '', [])) {
        findings.push({
          tool: definition.name,
          provider: descriptor.id,
          rule: 'format-not-enforced',
          message: `${path}: the format "${format}" is not one toolwright checks, so it is sent as a hint in the description ("Format: ${format}."), not as a format`,
          fix: 'none needed to send the tool; add a pattern or a length bound if the value must be checked',
          severity: 'info',
        });
      }
      const length = definition.description.length;
      if (length === 0) {
        findings.push({
          tool: definition.name,
          provider: descriptor.id,
          rule: 'description-missing',
          message: 'the tool has no description; models choose tools by their description',
          fix: 'describe what the tool does and when to use it',
          severity: 'info',
        });
      } else if (limits.maxDescriptionLength !== undefined && length > limits.maxDescriptionLength) {
        findings.push({
          tool: definition.name,
          provider: descriptor.id,
          rule: 'description-length',
          message: `the description has ${length} characters; ${descriptor.label} takes at most ${limits.maxDescriptionLength}`,
          fix: 'shorten the description and move details into the parameter descriptions',
          severity: 'error',
        });
      }
    }
    const strict = strictFor(options, descriptor);
    try {
      findings.push(...descriptor.lower(definitions, { strict }, { strict }).findings);
    } catch (error) {
      // A name collision was already reported by the name rules.
      if (!ToolwrightError.isInstance(error)) throw error;
    }
  }
  return findings;
}

/** The formats a source stated that toolwright does not enforce (a remote tool's `phone`), by parameter path. */
function unenforcedFormats(schema: ParamSchema, path: string, found: [string, string][]): [string, string][] {
  switch (schema.kind) {
    case 'string':
      if (schema.unenforcedFormat !== undefined)
        found.push([path === '' ? '(arguments)' : path, schema.unenforcedFormat]);
      break;
    case 'array':
      unenforcedFormats(schema.items, `${path}[]`, found);
      break;
    case 'object':
      for (const property of schema.properties)
        unenforcedFormats(property.schema, path === '' ? property.name : `${path}.${property.name}`, found);
      if (typeof schema.additionalProperties === 'object')
        unenforcedFormats(schema.additionalProperties, `${path}{}`, found);
      break;
    case 'union':
      for (const variant of schema.variants) unenforcedFormats(variant, path, found);
      break;
    default:
      break;
  }
  return found;
}
