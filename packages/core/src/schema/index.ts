// The schema area: the compact type grammar, JSON Schema import and export.
export { parseTypeExpression, formatTypeExpression, definitionFromCompact, SCALAR_KINDS } from './compact-grammar';
export { toJsonSchema, paramToJsonSchema, type JsonSchemaExportOptions } from './json-schema-export';
export { fromJsonSchema } from './json-schema-import';
export { definitionFromJsonSchema, type JsonSchemaToolOptions } from './json-schema-tool';
export { DEFAULT_JSON_SCHEMA_LIMITS, type JsonSchemaImportOptions, type JsonSchemaLimits } from './json-schema-limits';
export {
  JSON_SCHEMA_DIALECT,
  SUPPORTED_KEYWORDS,
  IGNORED_ANNOTATION_KEYWORDS,
  REFUSED_KEYWORDS,
  RESERVED_PROPERTY_NAMES,
  type JsonSchemaObject,
  type JsonSchemaTypeName,
  type KeywordFamily,
} from './json-schema-types';
export { hasNestedQuantifier } from './regex-safety';
export {
  compilePatternMatcher,
  linearEngineProblem,
  linearRegExpEngine,
  MAX_PATTERN_SUBJECT_LENGTH,
  type PatternMatcher,
} from './pattern-engine';
export { crossField, isCrossFieldRule } from './cross-field-keywords';
