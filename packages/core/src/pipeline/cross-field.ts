import type { ToolDefinition } from '../types/definition';
import type { CrossFieldIssue, CrossFieldResult, CrossFieldRule, CrossFieldValidator } from '../types/cross-field';
import type { ValidationIssue } from '../types/execution';

/**
 * Pipeline step 6b: cross-field validation. Runs after every per-field check passed (on the compiled and the reference
 * path alike), on the normalized, context-injected parameters: first the declarative rules of the arguments object
 * (imported from JSON Schema), then the tool's `validate` option, then a static `validate` method of its command
 * class. Its issues are ordinary INVALID_ARGUMENTS issues.
 */

/** The developer's `validate` threw or returned something that is not a result: a bug for the logs, not the model. */
export class CrossFieldValidatorError extends Error {
  constructor(
    readonly tool: string,
    readonly source: 'option' | 'class',
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(
      `the ${source === 'option' ? '`validate` option' : 'static `validate` method of the command class'} of "${tool}" ${detail}`,
      options,
    );
  }
}

const quote = (name: string) => JSON.stringify(name);

/** `"a"`, `"a" or "b"`, `"a", "b" or "c"` (or `and`). */
function list(items: readonly string[], joiner: 'or' | 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${joiner} ${items[items.length - 1]}`;
}

/** A set of names as one alternative: `"path"`, `"start" and "end" together`. */
function describeSet(set: readonly string[]): string {
  return set.length === 1 ? quote(set[0]!) : `${list(set.map(quote), 'and')} together`;
}

/** A rule in words, for descriptions and docs: `Send exactly one of "path" or "content".` */
export function describeCrossFieldRule(rule: CrossFieldRule): string {
  switch (rule.kind) {
    case 'oneOf':
      return `Send exactly one of ${list(rule.sets.map(describeSet), 'or')}.`;
    case 'anyOf':
      return `Send at least one of ${list(rule.sets.map(describeSet), 'or')}.`;
    case 'notAll':
      return rule.properties.length === 2
        ? `Do not send ${quote(rule.properties[0]!)} and ${quote(rule.properties[1]!)} together.`
        : `Do not send all of ${list(rule.properties.map(quote), 'and')} together.`;
    case 'dependentRequired':
      return `When sending ${quote(rule.property)}, also send ${list(rule.requires.map(quote), 'and')}.`;
  }
}

function present(params: Readonly<Record<string, unknown>>, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(params, name) && params[name] !== undefined;
}

function unique(names: readonly string[]): string[] {
  return [...new Set(names)];
}

function crossIssue(
  rule: string,
  paths: readonly string[],
  expected: string,
  received: readonly string[],
  message: string,
): ValidationIssue {
  return {
    path: paths[0] ?? '',
    paths: [...paths],
    rule,
    expected,
    received: received.length === 0 ? 'none of them' : list(received.map(quote), 'and'),
    message,
  };
}

/** The issues of the declarative rules for these parameters (none when every rule holds). */
export function crossFieldRuleIssues(
  rules: readonly CrossFieldRule[],
  params: Readonly<Record<string, unknown>>,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const rule of rules) {
    switch (rule.kind) {
      case 'oneOf':
      case 'anyOf': {
        const names = unique(rule.sets.flat());
        const sent = names.filter((name) => present(params, name));
        const complete = rule.sets.filter((set) => set.every((name) => present(params, name)));
        const expected = describeCrossFieldRule(rule)
          .replace(/^Send /, '')
          .replace(/\.$/, '');
        if (complete.length === 0) {
          const got =
            sent.length === 0
              ? 'none of them was sent'
              : `only ${list(sent.map(quote), 'and')} ${sent.length === 1 ? 'was' : 'were'} sent`;
          issues.push(
            crossIssue(rule.kind, names, expected, sent, `${describeCrossFieldRule(rule)} Received: ${got}.`),
          );
        } else if (rule.kind === 'oneOf' && complete.length > 1) {
          const involved = unique(complete.flat());
          issues.push(
            crossIssue(
              rule.kind,
              involved,
              expected,
              sent,
              `${describeCrossFieldRule(rule)} Received ${list(complete.map(describeSet), 'and')}: keep one of them and leave the other${complete.length > 2 ? 's' : ''} out.`,
            ),
          );
        }
        break;
      }
      case 'notAll':
        if (rule.properties.every((name) => present(params, name))) {
          issues.push(
            crossIssue(
              'not',
              rule.properties,
              describeCrossFieldRule(rule),
              rule.properties,
              `${describeCrossFieldRule(rule)} Received all of them: leave at least one out.`,
            ),
          );
        }
        break;
      case 'dependentRequired': {
        if (!present(params, rule.property)) break;
        const missing = rule.requires.filter((name) => !present(params, name));
        if (missing.length > 0) {
          issues.push(
            crossIssue(
              'dependentRequired',
              [...missing, rule.property],
              describeCrossFieldRule(rule),
              [rule.property],
              `${quote(rule.property)} needs ${list(missing.map(quote), 'and')}: send ${missing.length === 1 ? 'it' : 'them'} too, or leave ${quote(rule.property)} out.`,
            ),
          );
        }
        break;
      }
    }
  }
  return issues;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A validator's result as ValidationIssues; throws CrossFieldValidatorError for anything that is not a result. */
export function issuesFromResult(
  result: CrossFieldResult,
  tool: string,
  source: 'option' | 'class',
): ValidationIssue[] {
  if (result === undefined || result === null) return [];
  if (typeof result === 'string') {
    if (result.trim() === '')
      throw new CrossFieldValidatorError(
        tool,
        source,
        'returned an empty message. Fix: return undefined when the arguments are valid, or a message saying what to change.',
      );
    return [{ path: '', rule: 'cross-field', expected: result, message: result }];
  }
  if (!Array.isArray(result)) {
    throw new CrossFieldValidatorError(
      tool,
      source,
      `returned ${typeof result}. Fix: return undefined, a message, or an array of { path, message } issues.`,
    );
  }
  return (result as readonly unknown[]).map((entry, index) => {
    if (!isRecord(entry) || typeof entry['message'] !== 'string' || entry['message'].trim() === '') {
      throw new CrossFieldValidatorError(
        tool,
        source,
        `returned an issue without a message at index ${index}. Fix: give every issue a non-empty \`message\`.`,
      );
    }
    const given = entry as unknown as CrossFieldIssue;
    const paths = Array.isArray(given.paths)
      ? given.paths.filter((path): path is string => typeof path === 'string')
      : undefined;
    const path = typeof given.path === 'string' ? given.path : (paths?.[0] ?? '');
    return {
      path,
      ...(paths !== undefined && paths.length > 0 ? { paths } : {}),
      rule: typeof given.rule === 'string' && given.rule !== '' ? given.rule : 'cross-field',
      expected: typeof given.expected === 'string' ? given.expected : given.message,
      ...(typeof given.received === 'string' ? { received: given.received } : {}),
      ...(typeof given.example === 'string' ? { example: given.example } : {}),
      message: given.message,
    };
  });
}

/** The static `validate(params)` of a command class, when it has one. */
export function classValidator(commandClass: Function | undefined): CrossFieldValidator | undefined {
  const candidate =
    commandClass === undefined ? undefined : (commandClass as unknown as { validate?: unknown }).validate;
  return typeof candidate === 'function' ? (candidate.bind(commandClass) as CrossFieldValidator) : undefined;
}

async function run(
  validator: CrossFieldValidator,
  params: unknown,
  tool: string,
  source: 'option' | 'class',
): Promise<ValidationIssue[]> {
  let result: CrossFieldResult;
  try {
    result = await validator(params);
  } catch (error) {
    throw new CrossFieldValidatorError(
      tool,
      source,
      `threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}. Fix: return a message instead of throwing for invalid arguments.`,
      { cause: error },
    );
  }
  return issuesFromResult(result, tool, source);
}

/**
 * Every cross-field issue of a call whose per-field checks passed: the declarative rules first; the `validate`
 * functions only when those hold (so they may rely on them).
 */
export async function crossFieldIssues(
  definition: ToolDefinition,
  params: Readonly<Record<string, unknown>>,
  commandClass?: Function,
): Promise<ValidationIssue[]> {
  const rules = definition.parameters.crossFieldRules;
  if (rules !== undefined && rules.length > 0) {
    const issues = crossFieldRuleIssues(rules, params);
    if (issues.length > 0) return issues;
  }
  const issues: ValidationIssue[] = [];
  if (definition.options.validate !== undefined)
    issues.push(...(await run(definition.options.validate, params, definition.name, 'option')));
  const fromClass = classValidator(commandClass);
  if (fromClass !== undefined) issues.push(...(await run(fromClass, params, definition.name, 'class')));
  return issues;
}

/** Whether a tool has any cross-field check (so the executor skips the step, and its await, when it has none). */
export function hasCrossFieldChecks(definition: ToolDefinition, commandClass?: Function): boolean {
  return (
    (definition.parameters.crossFieldRules?.length ?? 0) > 0 ||
    definition.options.validate !== undefined ||
    classValidator(commandClass) !== undefined
  );
}
