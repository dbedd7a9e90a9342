import { jsonEquals } from '../schema/json-equals';
import { CHANGED, KEEP, REFUSED, invalid, valid, type LabelledValue, type RuleOutcome } from './outcome';
import type { EnumValue } from '../types/schema';

/**
 * Enum membership (JSON Schema `enum` and `const`): the one definition of "is one of", the one repair (a unique
 * case-insensitive match among string values, `enum-case`) and the edge cases. A scalar is a member when it is `===`
 * one of the values (so -0 is a member where 0 is); a container when it is JSON-equal to one.
 */

/** Whether a value is one of the allowed values. */
export function isMember(allowed: readonly unknown[], value: unknown): boolean {
  if (typeof value !== 'object' || value === null) {
    for (let index = 0; index < allowed.length; index++) if (allowed[index] === value) return true;
    return false;
  }
  for (let index = 0; index < allowed.length; index++) if (jsonEquals(allowed[index], value)) return true;
  return false;
}

/**
 * The membership of a scalar in a short list, as the shared walk runs it (`===`: the same answer as `isMember` for a
 * scalar, no allocation).
 */
export function isListedMember(listed: readonly unknown[], value: unknown): boolean {
  for (let index = 0; index < listed.length; index++) if (listed[index] === value) return true;
  return false;
}

/**
 * The same test as generated code for the hot tier: `subject` compared with each bound member name (`===`), or `false`
 * for an empty list.
 */
export function listedMemberSource(subject: string, members: readonly string[]): string {
  return members.length === 0 ? 'false' : members.map((member) => `${subject} === ${member}`).join(' || ');
}

/** A scalar enum's values as the set the shared walk and the hot tier look a value up in (`===`, as `isMember`). */
export function memberSet(allowed: readonly unknown[]): ReadonlySet<unknown> {
  return new Set(allowed);
}

/** The repair: exact, else a unique case-insensitive (and trimmed) match among string values. */
export function matchEnum(value: unknown, allowed: readonly unknown[], coerce: boolean): RuleOutcome {
  if (isMember(allowed, value)) return KEEP(value);
  if (!coerce || typeof value !== 'string') return REFUSED;
  const wanted = value.trim().toLowerCase();
  const matches = allowed.filter((candidate) => typeof candidate === 'string' && candidate.toLowerCase() === wanted);
  return matches.length === 1 ? CHANGED(matches[0], 'enum-case') : REFUSED;
}

/** The values as the model reads them: at most `shown`, each as JSON. */
export function listedValues(allowed: readonly EnumValue[], shown = 20): string[] {
  return allowed.slice(0, shown).map((value) => JSON.stringify(value));
}

/** Edge cases for the enum `["red", "Green", "1", 1, null]` (a value labelled as `strict` sees it). */
export const EDGE_ENUM: readonly EnumValue[] = ['red', 'Green', '1', 1, 'e\u0301'];

export function enumEdgeCases(): LabelledValue[] {
  return [
    valid('red', 'a member'),
    valid('Green', 'a member with a capital'),
    invalid('green', 'another case (safe repairs)'),
    invalid('RED', 'upper case (safe repairs)'),
    invalid(' red', 'leading white space (safe repairs)'),
    valid('1', 'a numeric string member'),
    valid(1, 'a number member'),
    invalid(-0, 'negative zero, not the member 0'),
    invalid(2, 'a number not a member'),
    valid('e\u0301', 'a member with a combining mark'),
    invalid('\u00e9', 'the precomposed form of that member'),
    invalid('red\u200B', 'a member with a zero-width space'),
  ];
}
