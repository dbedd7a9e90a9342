// @toolwright/core/internal: the building blocks toolwright's own packages (providers, mcp, nestjs, interop, queue)
// and tests share. Not public API: names here may change in any release. Applications import from '@toolwright/core'.
import './metadata/require-reflect-metadata';

export {
  COMMAND_METADATA,
  PARAM_METADATA,
  getCommandMetadata,
  getParamMetadata,
  getOwnParamMetadata,
  getValidatorMetadata,
  type CommandMetadata,
  type ParamMetadata,
  type ToolParamMetadata,
  type ArrayOfMetadata,
  type DateTimeMetadata,
  type DateOnlyMetadata,
  type FromContextMetadata,
  type ValidatorMetadata,
} from './metadata';
export {
  SCALAR_KINDS,
  SUPPORTED_KEYWORDS,
  IGNORED_ANNOTATION_KEYWORDS,
  REFUSED_KEYWORDS,
  RESERVED_PROPERTY_NAMES,
  type KeywordFamily,
  hasNestedQuantifier,
  compilePatternMatcher,
  linearEngineProblem,
  linearRegExpEngine,
  MAX_PATTERN_SUBJECT_LENGTH,
  type PatternMatcher,
} from './schema';
export { dtoForSchema, retainSchemaDtos, releaseSchemaDtos } from './validation';
export {
  parseArguments,
  type ParsedArguments,
  sanitizeArguments,
  DANGEROUS_KEYS,
  compileNormalizer,
  canonicalKey,
  NormalizeState,
  INVALID,
  type Normalizer,
  type NormalizeOptions,
  injectContext,
  extractFromPackets,
  buildParameters,
  buildForHandlerTool,
  type SeedParameters,
  packetsLatestFirst,
  latestDataPacket,
  extractFromContext,
  DataPacketOrderError,
  validateWithClassValidator,
  CLASS_VALIDATOR_OPTIONS,
  resolveToolName,
  suggest,
  MAX_TOOL_NAME_LENGTH,
  type NameResolution,
  type ToolLookup,
  isToolAllowed,
  describeExpected,
  describeReceived,
  exampleValue,
  crossFieldIssues,
  crossFieldRuleIssues,
  describeCrossFieldRule,
  issuesFromResult,
  CrossFieldValidatorError,
} from './pipeline';
export {
  runWithTimeout,
  isNetworkError,
  type RunOptions,
  REDACTED,
  sensitivePaths,
  redactTransformations,
  redactValue,
  checkCommandClass,
  constructorParameters,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_SLOW_CALL_MS,
  ToolTelemetry,
  TurnSpan,
  defaultToolTelemetry,
  ApprovalGate,
  pendingView,
  plainParams,
  type ApprovalClaim,
  type ApprovedCall,
} from './execution';
export { ApprovalRequiredError } from './errors/approval-required-error';
export { ApprovalDeniedError } from './errors/approval-denied-error';
export { ApprovalNotFoundError } from './errors/approval-not-found-error';
export { JSON_SCHEMA_DIALECT, isCrossFieldRule } from './schema';
export {
  MAX_RELATIVE_DATE_PHRASE_LENGTH,
  RELATIVE_DATE_EXAMPLES,
  ResolveRelativeDateCommand,
  ResolveRelativeDateParams,
} from './builtins';
export { retryMessage, finalErrorMessage } from './loop';
// The executor's own readers and lossless scalar conversions, reused by @toolwright/providers' text tool-call
// parser to type XML-style raw values and read JSON/Python-literal calls without a second copy of the rules.
export { readJsonLike, type ReadDocument, type ReadOptions, type ReadValue } from './pipeline/read-json-like';
// The executor's own decision that JSON.parse read a valid JSON text exactly as the reader would (the facts of its
// value, then the check the executor runs on them, or the text scan for a lost key or digit): the text parser's fast
// path, derived from the same rule.
export {
  inspectParsedValue,
  mayLoseInformation,
  mayLoseInformationByScan,
  type ParsedValueFacts,
} from './pipeline/information-loss';
// JSON's lexical rules, for @toolwright/providers' incremental reader of streamed arguments (one lexer, here).
export { isJsonWhitespace, jsonEscapeCharacter, isJsonHexDigit } from './pipeline/json-text-rules';
export { CONTROL_TOKENS, firstControlToken, withoutControlTokens } from './pipeline/control-tokens';
export { toInteger } from './rules/integer';
export { toFloat, JSON_NUMBER } from './rules/number';
export { toBoolean } from './rules/boolean';
export type { RuleOutcome } from './rules/outcome';
export { isUnsafeIntegerLiteral } from './rules/unsafe-integer';
export { checkToolResult, resultInvalidError } from './result-check/check-tool-result';
export { ResultInvalidError } from './errors/result-invalid-error';
// The one escape of every log line, for the loggers of the other packages (the CLI's stderr lines).
export { escapeLogText } from './logging/log-escape';
export {
  buildModelOutput,
  continuationParameter,
  isTextOnly,
  jsonText,
  modelContent,
  modelText,
  partNote,
  partsText,
} from './result-view/model-output';
export {
  DEFAULT_RESULT_BUDGET_CHARS,
  CHARS_PER_TOKEN_ESTIMATE,
  cutJson,
  cutText,
  jsonLengthUpTo,
} from './result-view/result-budget';
