import { InvalidArgumentsError } from '../errors/invalid-arguments-error';
import type { PipelineLimits } from './limits';
import { messages } from './messages';

/**
 * The size budget for arguments a caller passed as an object (not text): the same `maxArgumentsBytes` the arguments
 * text gets, counted as the JSON text of the object would be (a lower bound: each UTF-16 unit counts one byte, so an
 * object is refused only when its JSON would be refused too), plus the depth and array limits. The walk stops at the
 * first limit crossed, so its cost is bounded by the budget, not by the input: a 100 MB string is refused after one
 * length check, 10,000 arrays of 10,000 items after the first few hundred thousand items.
 */
export function checkArgumentBudget(input: object, limits: PipelineLimits): void {
  const budget = limits.maxArgumentsBytes;
  let used = 0;
  const values: unknown[] = [input];
  const depths: number[] = [1];
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop()!;
    if (typeof value === 'string') used += value.length + 2;
    else if (typeof value !== 'object' || value === null) used += 1;
    else {
      if (depth > limits.maxDepth)
        refuse('max-depth', `at most ${limits.maxDepth} levels of nesting`, messages.tooDeep(limits.maxDepth));
      if (Array.isArray(value)) {
        if (value.length > limits.maxArrayItems)
          refuse(
            'max-items',
            `at most ${limits.maxArrayItems} items`,
            messages.tooManyItems('', limits.maxArrayItems, value.length),
          );
        // `[]` and a comma per item: an array's own size is known before its items are visited.
        used += 2 + value.length;
        if (used > budget) tooLarge(budget);
        for (let index = value.length - 1; index >= 0; index--) {
          values.push(value[index]);
          depths.push(depth + 1);
        }
      } else {
        used += 2;
        for (const key in value) {
          if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
          // `"key":` and a comma.
          used += key.length + 4;
          if (used > budget) tooLarge(budget);
          values.push((value as Record<string, unknown>)[key]);
          depths.push(depth + 1);
        }
      }
    }
    if (used > budget) tooLarge(budget);
  }
}

function tooLarge(budget: number): never {
  refuse('max-size', `at most ${budget} bytes`, messages.argumentsTooLarge(budget));
}

function refuse(rule: string, expected: string, message: string): never {
  throw new InvalidArgumentsError(message, { issues: [{ path: '', rule, expected, message }] });
}
