import { DefinitionError } from '../errors/definition-error';
import type { PipelineLimits } from '../pipeline/limits';

/** Longest description of a thrown value kept for a log line. */
const MAX_CAUSE_LENGTH = 500;

/**
 * A one-line description of anything a handler threw, for logs. Total: it never throws, whatever the value
 * (`Object.create(null)`, an object whose `toString` throws, an error whose `message` getter throws, a revoked Proxy).
 */
export function describeThrown(value: unknown): string {
  let text: string;
  try {
    text = describe(value);
  } catch {
    text = fallbackDescription(value);
  }
  return text.length > MAX_CAUSE_LENGTH ? `${text.slice(0, MAX_CAUSE_LENGTH)}... (${text.length} characters)` : text;
}

function describe(value: unknown): string {
  if (value instanceof Error) {
    const name = safeRead(() => value.name, 'Error');
    const message = safeRead(() => value.message, '(message unreadable)');
    return `${String(name)}: ${String(message)}`;
  }
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the thrown object's own toString is what describes it; '[object Object]' is an acceptable last resort
  if (typeof value === 'object' && value !== null) return String(value);
  return String(value);
}

function safeRead<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

function fallbackDescription(value: unknown): string {
  if (value === null || typeof value !== 'object') return typeof value;
  try {
    const prototype = Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null;
    if (prototype === null) return 'an object without a prototype';
    const name = prototype.constructor?.name;
    return typeof name === 'string' && name !== ''
      ? `a ${name} that cannot be turned into text`
      : 'an object that cannot be turned into text';
  } catch {
    return 'an object that cannot be inspected';
  }
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function invalidOption(target: string, option: string, value: unknown, expected: string): DefinitionError {
  return new DefinitionError(`The option ${option} is ${describeThrown(value)}; it must be ${expected}.`, {
    target,
    property: option,
    fix: `Pass ${expected}, or leave ${option} out for the default.`,
  });
}

/** `executeAll`'s arguments: an array of calls and, when given, a concurrency that is a whole number of at least 1. */
export function checkExecuteAllArguments(calls: unknown, options: unknown): void {
  if (!Array.isArray(calls))
    throw new DefinitionError(`executeAll takes an array of tool calls, but received ${describeThrown(calls)}.`, {
      target: 'PersonaToolExecutor.executeAll',
      fix: 'Pass the calls as an array (e.g. the tool calls of one model turn).',
    });
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null)
    throw invalidOption('PersonaToolExecutor.executeAll', 'options', options, 'an object');
  const concurrency = (options as { concurrency?: unknown }).concurrency;
  if (concurrency !== undefined && !isPositiveInteger(concurrency)) {
    throw invalidOption('PersonaToolExecutor.executeAll', 'concurrency', concurrency, 'a whole number of at least 1');
  }
}

/** The executor's numeric options: timeouts are positive finite numbers, limits positive whole numbers. */
/** What a result budget may be (the executor's `resultBudgetChars` and a tool's): at least 1 character, or `Infinity`. */
export const RESULT_BUDGET_EXPECTED = 'a whole number of characters of at least 1, or Infinity (no budget)';

export function isResultBudget(value: unknown): boolean {
  return value === Number.POSITIVE_INFINITY || (Number.isInteger(value) && (value as number) >= 1);
}

export function checkExecutorOptions(options: {
  readonly timeoutMs?: unknown;
  readonly slowCallMs?: unknown;
  readonly limits?: Partial<Record<keyof PipelineLimits, unknown>>;
  readonly coercion?: unknown;
  readonly policy?: unknown;
  readonly validation?: unknown;
  readonly resultBudgetChars?: unknown;
}): void {
  const target = 'PersonaToolExecutor';
  for (const option of ['timeoutMs', 'slowCallMs'] as const) {
    const value = options[option];
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value > 0))
      throw invalidOption(target, option, value, 'a positive number of milliseconds');
  }
  for (const option of ['coercion', 'policy'] as const) {
    const value = options[option];
    if (value !== undefined && value !== 'strict' && value !== 'safe' && value !== 'lenient')
      throw invalidOption(target, option, value, "'strict', 'safe' or 'lenient'");
  }
  if (options.resultBudgetChars !== undefined && !isResultBudget(options.resultBudgetChars)) {
    throw invalidOption(target, 'resultBudgetChars', options.resultBudgetChars, RESULT_BUDGET_EXPECTED);
  }
  if (options.validation !== undefined && options.validation !== 'compiled' && options.validation !== 'reference') {
    throw invalidOption(target, 'validation', options.validation, "'compiled' or 'reference'");
  }
  if (options.limits === undefined) return;
  for (const [name, value] of Object.entries(options.limits)) {
    if (value !== undefined && !isPositiveInteger(value))
      throw invalidOption(target, `limits.${name}`, value, 'a whole number of at least 1');
  }
}
