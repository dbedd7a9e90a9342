/** Limits applied to every call before any transform; all configurable per executor. */
export interface PipelineLimits {
  /** Maximum nesting depth of the arguments (objects and arrays). */
  readonly maxDepth: number;
  /** Maximum size of the arguments text, in bytes (UTF-8). */
  readonly maxArgumentsBytes: number;
  /** Maximum items in any one array. */
  readonly maxArrayItems: number;
}

export const DEFAULT_LIMITS: PipelineLimits = Object.freeze({
  maxDepth: 64,
  maxArgumentsBytes: 1024 * 1024,
  maxArrayItems: 10_000,
});
