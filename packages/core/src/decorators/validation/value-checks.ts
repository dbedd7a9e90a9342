// Temporary re-export for branches written before the move (p12's normalizer split): delete after the merge.
// The module is schema/value-checks.ts (and the equality helper schema/json-equals.ts).
export { canonicalJson, codePointLength, compilePattern, copyJsonValue, isDateOnly, isOffsetDateTime } from '../../schema/value-checks';
export { jsonEquals } from '../../schema/json-equals';
export { renderValue } from '../../schema/render-value';
