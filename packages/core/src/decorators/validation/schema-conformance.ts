// Temporary re-export for branches written before the move (p12's normalizer split): delete after the merge.
// The module is schema/conformance.ts.
export { conformsTo, describeSchema, isMultipleOf, isPlainObject, withinBounds } from '../../schema/conformance';
