/** An integer literal no JavaScript number holds exactly (beyond 2^53 - 1): the digits as sent, kept until the value rules decide. */
export class UnsafeIntegerLiteral {
  constructor(readonly text: string) {
    Object.freeze(this);
  }

  toJSON(): string {
    return this.text;
  }
}

export function isUnsafeIntegerLiteral(value: unknown): value is UnsafeIntegerLiteral {
  return value instanceof UnsafeIntegerLiteral;
}

/** Whether a value holds an {@link UnsafeIntegerLiteral} at any depth (an iterative walk). */
export function containsUnsafeInteger(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current !== 'object' || current === null) continue;
    if (current instanceof UnsafeIntegerLiteral) return true;
    for (const item of Array.isArray(current) ? current : Object.values(current))
      if (typeof item === 'object' && item !== null) stack.push(item);
  }
  return false;
}
