/**
 * What a kind's repair answers, and how each kind's edge cases are labelled: the shared vocabulary of `rules/`.
 * A repair returns the value unchanged, a recovered value with the transformation's name, or a refusal with the
 * reason. None invents a value.
 */
export type RuleOutcome =
  | { readonly ok: true; readonly value: unknown; readonly rule?: string }
  | { readonly ok: false; readonly reason?: string; readonly relative?: boolean };

export const KEEP = (value: unknown): RuleOutcome => ({ ok: true, value });
export const CHANGED = (value: unknown, rule: string): RuleOutcome => ({ ok: true, value, rule });
export const REFUSED: RuleOutcome = { ok: false };
export const refuse = (reason: string, relative = false): RuleOutcome => ({ ok: false, reason, relative });

/**
 * One edge case of a rule, for tests: a value and whether the rule accepts it as sent (`valid`: kept unchanged under
 * the `strict` policy; `invalid`: refused under `strict`), with what makes it an edge.
 */
export interface LabelledValue {
  readonly value: unknown;
  readonly valid: boolean;
  readonly note: string;
}

export const valid = (value: unknown, note: string): LabelledValue => ({ value, valid: true, note });
export const invalid = (value: unknown, note: string): LabelledValue => ({ value, valid: false, note });

/**
 * The Unicode edges every text rule is tried with: surrogate pairs, a lone surrogate, variation selectors, combining
 * marks, zero-width and control characters, with their length in code points (JSON Schema's count) and in
 * validator.js's count (class-validator's `@Length`: a variation selector after a character, and a surrogate pair's
 * second half, not counted).
 */
export const UNICODE_EDGES: readonly {
  readonly text: string;
  readonly codePoints: number;
  readonly validator: number;
  readonly note: string;
}[] = [
  { text: 'abc', codePoints: 3, validator: 3, note: 'plain ASCII' },
  { text: 'a\uFE0Fb', codePoints: 3, validator: 2, note: 'a variation selector (VS16)' },
  { text: 'a\uFE0Eb', codePoints: 3, validator: 2, note: 'a variation selector (VS15)' },
  { text: 'a\u{1F600}', codePoints: 2, validator: 2, note: 'a surrogate pair' },
  { text: '\u{1F600}\u{1F600}', codePoints: 2, validator: 2, note: 'two surrogate pairs' },
  { text: 'e\u0301x', codePoints: 3, validator: 3, note: 'a combining mark' },
  { text: 'a\u200Bb', codePoints: 3, validator: 3, note: 'a zero-width space' },
  { text: 'a\u200Db', codePoints: 3, validator: 3, note: 'a zero-width joiner' },
  { text: 'a\u0000b', codePoints: 3, validator: 3, note: 'a NUL control character' },
  { text: 'a\u0007b', codePoints: 3, validator: 3, note: 'a BEL control character' },
  { text: 'a\uD800b', codePoints: 3, validator: 3, note: 'a lone high surrogate' },
  { text: 'a\uDC00', codePoints: 2, validator: 2, note: 'a lone low surrogate' },
  { text: '\u2764\uFE0F', codePoints: 2, validator: 1, note: 'an emoji presentation sequence' },
  { text: '', codePoints: 0, validator: 0, note: 'the empty string' },
];
