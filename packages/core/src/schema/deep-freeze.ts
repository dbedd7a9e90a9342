/**
 * Freezes a built IR value all the way down, without recursion (a deep schema cannot overflow the stack). Classes and
 * other functions it holds (`dto`, `command`, `params`) are left as they are; frozen subtrees (a nested DTO's cached
 * schema) are not walked again.
 */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === null || typeof current !== 'object' || Object.isFrozen(current)) continue;
    Object.freeze(current);
    for (const key of Object.keys(current)) {
      const child = (current as Record<string, unknown>)[key];
      if (child !== null && typeof child === 'object') stack.push(child);
    }
  }
  return value;
}
