export { DEFAULT_LIMITS, type PipelineLimits } from './limits';
export { parseArguments, type ParsedArguments } from './parse-arguments';
export { sanitizeArguments, DANGEROUS_KEYS } from './sanitize';
export {
  compileNormalizer,
  NormalizeState,
  INVALID,
  type Normalizer,
  type NormalizeOptions,
  type SecurityEvent,
} from './normalizer';
export { canonicalKey } from './keys';
export { injectContext, extractFromPackets } from './context-injection';
export { buildParameters, buildForHandlerTool, type SeedParameters } from './seed-parameters';
export { packetsLatestFirst, latestDataPacket, extractFromContext, DataPacketOrderError } from './data-packets';
export { validateWithClassValidator, CLASS_VALIDATOR_OPTIONS } from './reference-validation';
export {
  resolveToolName,
  suggest,
  MAX_TOOL_NAME_LENGTH,
  type NameResolution,
  type ToolLookup,
} from './name-resolution';
export { isToolAllowed } from './permissions';
export { describeExpected, describeReceived, exampleValue } from './messages';
export {
  crossFieldIssues,
  crossFieldRuleIssues,
  describeCrossFieldRule,
  issuesFromResult,
  CrossFieldValidatorError,
} from './cross-field';
