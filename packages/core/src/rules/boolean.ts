import { CHANGED, KEEP, REFUSED, invalid, valid, type LabelledValue, type RuleOutcome } from './outcome';

/** The boolean kind: its canonical test, its repairs (`true`/`yes`/`1` in any case, and `0`/`1`), its edge cases. */

export function isBoolean(value: unknown): value is boolean {
  return typeof value === 'boolean';
}

const TRUE_WORDS = new Set(['true', 'yes', '1']);
const FALSE_WORDS = new Set(['false', 'no', '0']);

export function toBoolean(value: unknown, coerce: boolean): RuleOutcome {
  if (typeof value === 'boolean') return KEEP(value);
  if (!coerce) return REFUSED;
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return CHANGED(true, 'string-to-boolean');
    if (FALSE_WORDS.has(word)) return CHANGED(false, 'string-to-boolean');
    return REFUSED;
  }
  if (value === 1) return CHANGED(true, 'number-to-boolean');
  if (value === 0) return CHANGED(false, 'number-to-boolean');
  return REFUSED;
}

export const BOOLEAN_DESCRIPTION = 'a boolean (true or false)';

export function booleanEdgeCases(): LabelledValue[] {
  return [
    valid(true, 'true'),
    valid(false, 'false'),
    invalid('true', 'text (safe repairs)'),
    invalid('YES', 'a yes word (safe repairs)'),
    invalid(1, 'one (safe repairs)'),
    invalid(-0, 'negative zero'),
    invalid('maybe', 'another word'),
    invalid(null, 'null'),
  ];
}
