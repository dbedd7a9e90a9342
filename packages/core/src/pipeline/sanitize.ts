import { InvalidArgumentsError } from '../errors/invalid-arguments-error';
import type { Transformation, ValidationIssue } from '../types/execution';
import type { PipelineLimits } from './limits';
import { messages } from './messages';
import { isUnsafeIntegerLiteral } from '../rules/unsafe-integer';

/** Keys that can never be copied safely (prototype pollution, class-transformer crashes): dropped everywhere. */
export const DANGEROUS_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export interface SanitizedArguments {
  readonly value: Record<string, unknown>;
  readonly transformations: Transformation[];
}

function joinPath(parent: string, key: string | number): string {
  return typeof key === 'number' ? `${parent}[${key}]` : parent === '' ? key : `${parent}.${key}`;
}

/**
 * Pipeline step 6a, done first so nothing later can be hurt: an iterative copy of the parsed arguments that drops
 * `__proto__`/`constructor`/`prototype` keys at any depth and enforces the nesting and array-size limits. Being
 * iterative, a value nested 100,000 levels deep yields a typed error, never a RangeError.
 */
export function sanitizeArguments(
  input: Record<string, unknown>,
  limits: PipelineLimits,
  options: { readonly owned?: boolean } = {},
): SanitizedArguments {
  // Arguments the executor parsed from text are its own objects: when nothing needs dropping, a check is enough.
  if (options.owned === true && isClean(input, limits)) return { value: input, transformations: [] };
  const transformations: Transformation[] = [];
  const root: Record<string, unknown> = {};
  type Frame = { source: unknown; target: Record<string, unknown> | unknown[]; depth: number; path: string };
  const stack: Frame[] = [{ source: input, target: root, depth: 1, path: '' }];
  while (stack.length > 0) {
    const { source, target, depth, path } = stack.pop()!;
    if (depth > limits.maxDepth)
      fail(path, 'max-depth', `at most ${limits.maxDepth} levels of nesting`, messages.tooDeep(limits.maxDepth));
    if (Array.isArray(source)) {
      if (source.length > limits.maxArrayItems) {
        fail(
          path,
          'max-items',
          `at most ${limits.maxArrayItems} items`,
          messages.tooManyItems(path, limits.maxArrayItems, source.length),
        );
      }
      const array = target as unknown[];
      for (let index = 0; index < source.length; index++) {
        array[index] = copyChild(source[index], depth, joinPath(path, index), stack);
      }
      continue;
    }
    const object = target as Record<string, unknown>;
    for (const key of Object.keys(source as object)) {
      const value = (source as Record<string, unknown>)[key];
      if (DANGEROUS_KEYS.has(key)) {
        transformations.push({ path: joinPath(path, key), rule: 'dropped-dangerous-key', from: key, to: undefined });
        continue;
      }
      object[key] = copyChild(value, depth, joinPath(path, key), stack);
    }
  }
  return { value: root, transformations };
}

/**
 * True when the value holds no dangerous key and is within every limit (an iterative walk, no allocation per value).
 * False sends the value through the copying walk, which names the problem's path.
 */
function isClean(input: Record<string, unknown>, limits: PipelineLimits): boolean {
  const values: unknown[] = [input];
  const depths: number[] = [1];
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop()!;
    if (depth > limits.maxDepth) return false;
    if (Array.isArray(value)) {
      if (value.length > limits.maxArrayItems) return false;
      for (let index = 0; index < value.length; index++) {
        const item = value[index];
        if (typeof item === 'object' && item !== null && !isUnsafeIntegerLiteral(item)) {
          values.push(item);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    if (Object.getPrototypeOf(value) !== Object.prototype) return false;
    for (const key in value as object) {
      if (DANGEROUS_KEYS.has(key)) return false;
      const item = (value as Record<string, unknown>)[key];
      if (typeof item === 'object' && item !== null && !isUnsafeIntegerLiteral(item)) {
        values.push(item);
        depths.push(depth + 1);
      }
    }
  }
  return true;
}

function copyChild(
  value: unknown,
  depth: number,
  path: string,
  stack: Array<{ source: unknown; target: Record<string, unknown> | unknown[]; depth: number; path: string }>,
): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Date) return value.toISOString();
  // An integer literal beyond 2^53 keeps its digits until the value rules decide (issue 10, class 1).
  if (isUnsafeIntegerLiteral(value)) return value;
  const target: Record<string, unknown> | unknown[] = Array.isArray(value) ? new Array<unknown>() : {};
  stack.push({ source: value, target, depth: depth + 1, path });
  return target;
}

function fail(path: string, rule: string, expected: string, message: string): never {
  const issue: ValidationIssue = { path, rule, expected, message };
  throw new InvalidArgumentsError(message, { issues: [issue] });
}
