import type { ToolOptions, ToolQueueOptions } from '../types/definition';
import type { CoercionPolicy } from '../types/schema';

/**
 * The one table of tool option checks, shared by every source of a definition: `@Command` options, the options of
 * `registerJsonSchemaTool` / `definitionFromJsonSchema` and of `registerCompact` / `definitionFromCompact`.
 * Each entry says what a valid value is, in the words a message uses.
 */
export interface ToolOptionCheck {
  readonly option: keyof ToolOptions;
  /** What a valid value is: `a positive number of milliseconds`. */
  readonly expected: string;
  readonly isValid: (value: unknown) => boolean;
  /** A message of its own (the problem and the fix), instead of "<origin> has an invalid `option`: <value> is not <expected>". */
  readonly message?: (value: unknown) => { readonly problem: string; readonly fix: string };
}

export const ANNOTATION_HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
export const COERCION_POLICIES: readonly CoercionPolicy[] = ['strict', 'safe', 'lenient'];
const QUEUE_OPTION_KEYS: readonly string[] = ['attempts', 'backoff', 'priority'];

function isNonEmptyStringList(value: unknown): boolean {
  return Array.isArray(value) && value.every((entry) => typeof entry === 'string' && entry.length > 0);
}

function isPositiveMilliseconds(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isQueueOptions(value: unknown): boolean {
  if (!isRecord(value)) return false;
  const queue = value as ToolQueueOptions;
  const backoff = value['backoff'];
  return (
    Object.keys(value).every((key) => QUEUE_OPTION_KEYS.includes(key)) &&
    (queue.attempts === undefined || (Number.isInteger(queue.attempts) && queue.attempts >= 1)) &&
    (queue.priority === undefined ||
      (Number.isInteger(queue.priority) && queue.priority >= 1 && queue.priority <= 2_097_152)) &&
    (backoff === undefined ||
      (isRecord(backoff) &&
        (backoff['type'] === 'fixed' || backoff['type'] === 'exponential') &&
        typeof backoff['delayMs'] === 'number' &&
        Number.isFinite(backoff['delayMs']) &&
        backoff['delayMs'] >= 0))
  );
}

export const TOOL_OPTION_CHECKS: readonly ToolOptionCheck[] = [
  { option: 'title', expected: 'a string', isValid: (value) => typeof value === 'string' },
  { option: 'aliases', expected: 'an array of non-empty strings', isValid: isNonEmptyStringList },
  { option: 'tags', expected: 'an array of non-empty strings', isValid: isNonEmptyStringList },
  { option: 'permissions', expected: 'an array of non-empty strings', isValid: isNonEmptyStringList },
  { option: 'timeoutMs', expected: 'a positive number of milliseconds', isValid: isPositiveMilliseconds },
  { option: 'slowCallMs', expected: 'a positive number of milliseconds', isValid: isPositiveMilliseconds },
  {
    option: 'retries',
    expected: 'a non-negative integer',
    isValid: (value) => Number.isInteger(value) && (value as number) >= 0,
  },
  {
    option: 'coercion',
    expected: "'strict', 'safe' or 'lenient'",
    isValid: (value) => COERCION_POLICIES.includes(value as CoercionPolicy),
  },
  {
    option: 'queue',
    expected:
      "an object { attempts?: integer >= 1, backoff?: { type: 'fixed' | 'exponential', delayMs: number >= 0 }, priority?: integer 1..2097152 }",
    isValid: isQueueOptions,
  },
  {
    option: 'validate',
    expected: 'a function (params) => string | issues | undefined',
    isValid: (value) => typeof value === 'function',
    message: (value) => ({
      problem: `the \`validate\` option is ${typeof value}, not a function.`,
      fix: 'pass validate: (params) => string | issues | undefined, or leave it out.',
    }),
  },
  {
    option: 'approval',
    expected: 'true, false or a function (params, context) => boolean | string | Promise<boolean | string>',
    isValid: (value) => typeof value === 'boolean' || typeof value === 'function',
  },
  {
    option: 'toModelOutput',
    expected: 'a function (value, context) => string | ToolContent | JSON value',
    isValid: (value) => typeof value === 'function',
  },
  {
    option: 'resultBudgetChars',
    expected: 'a whole number of characters of at least 1, or Infinity (no budget)',
    isValid: (value) => value === Number.POSITIVE_INFINITY || (Number.isInteger(value) && (value as number) >= 1),
  },
  {
    option: 'annotations',
    expected: `an object of boolean hints (${ANNOTATION_HINTS.join(', ')})`,
    isValid: (value) =>
      isRecord(value) &&
      Object.entries(value).every(
        ([key, hint]) => (ANNOTATION_HINTS as readonly string[]).includes(key) && typeof hint === 'boolean',
      ),
  },
];

/** The option names the table knows, in its order (the keys a definition's options may carry). */
export const TOOL_OPTION_KEYS: readonly (keyof ToolOptions)[] = TOOL_OPTION_CHECKS.map((check) => check.option);

/** The first option that fails its check, or `undefined` when every given option is valid. */
export function findInvalidToolOption(options: Readonly<Record<string, unknown>>): ToolOptionCheck | undefined {
  if (!givesToolOption(options)) return undefined;
  return TOOL_OPTION_CHECKS.find(
    (check) => options[check.option] !== undefined && !check.isValid(options[check.option]),
  );
}

/** A frozen copy of plain arrays and objects (options are small and shallow), so freezing never freezes the caller's. */
function frozenCopy(value: unknown): unknown {
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy));
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) copy[key] = frozenCopy((value as Record<string, unknown>)[key]);
    return Object.freeze(copy);
  }
  return value;
}

/**
 * Whether any option of the table is given (defined, own or inherited), read by name: most tools give none, and reading
 * absent keys by a computed name (`options[check.option]`) is slow in a registry of 1,000 commands. Lists every key
 * of `TOOL_OPTION_CHECKS` (a unit test sets each one alone).
 */
export function givesToolOption(options: Readonly<ToolOptions>): boolean {
  return (
    options.title !== undefined ||
    options.aliases !== undefined ||
    options.tags !== undefined ||
    options.permissions !== undefined ||
    options.timeoutMs !== undefined ||
    options.slowCallMs !== undefined ||
    options.retries !== undefined ||
    options.coercion !== undefined ||
    options.queue !== undefined ||
    options.validate !== undefined ||
    options.annotations !== undefined ||
    options.approval !== undefined ||
    options.toModelOutput !== undefined ||
    options.resultBudgetChars !== undefined
  );
}

/** A frozen copy of the known options that were given (unknown keys are left out). */
export function copyToolOptions(options: Readonly<Record<string, unknown>>): ToolOptions {
  if (!givesToolOption(options)) return NO_OPTIONS;
  let copy: Record<string, unknown> | undefined;
  for (const key of TOOL_OPTION_KEYS) {
    const value = options[key];
    if (value !== undefined) (copy ??= {})[key] = frozenCopy(value);
  }
  // No option given (most tools): one frozen empty object for all.
  return copy === undefined ? NO_OPTIONS : Object.freeze(copy);
}

const NO_OPTIONS: ToolOptions = Object.freeze({});
