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
    // Indexed and `for...in` walks (own keys only, as `Object.keys` gives): no key array per object.
    if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index++) pushObject(stack, current[index]);
      continue;
    }
    for (const key in current) {
      if (Object.hasOwn(current, key)) pushObject(stack, (current as Record<string, unknown>)[key]);
    }
  }
  return value;
}

function pushObject(stack: unknown[], child: unknown): void {
  if (child !== null && typeof child === 'object') stack.push(child);
}
