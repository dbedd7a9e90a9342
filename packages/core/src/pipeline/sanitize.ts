import { InvalidArgumentsError } from '../errors/invalid-arguments-error';
import type { Transformation, ValidationIssue } from '../types/execution';
import type { PipelineLimits } from './limits';
import { messages } from './messages';

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
export function sanitizeArguments(input: Record<string, unknown>, limits: PipelineLimits): SanitizedArguments {
  const transformations: Transformation[] = [];
  const root: Record<string, unknown> = {};
  type Frame = { source: unknown; target: Record<string, unknown> | unknown[]; depth: number; path: string };
  const stack: Frame[] = [{ source: input, target: root, depth: 1, path: '' }];
  while (stack.length > 0) {
    const { source, target, depth, path } = stack.pop()!;
    if (depth > limits.maxDepth) fail(path, 'max-depth', `at most ${limits.maxDepth} levels of nesting`, messages.tooDeep(limits.maxDepth));
    if (Array.isArray(source)) {
      if (source.length > limits.maxArrayItems) {
        fail(path, 'max-items', `at most ${limits.maxArrayItems} items`, messages.tooManyItems(path, limits.maxArrayItems, source.length));
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

function copyChild(value: unknown, depth: number, path: string, stack: Array<{ source: unknown; target: Record<string, unknown> | unknown[]; depth: number; path: string }>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Date) return value.toISOString();
  const target: Record<string, unknown> | unknown[] = Array.isArray(value) ? new Array<unknown>() : {};
  stack.push({ source: value, target, depth: depth + 1, path });
  return target;
}

function fail(path: string, rule: string, expected: string, message: string): never {
  const issue: ValidationIssue = { path, rule, expected, message };
  throw new InvalidArgumentsError(message, { issues: [issue] });
}
