/** The context object a standard (TC39) decorator receives as its second argument: `{ kind, name, ... }`. */
export interface StandardDecoratorContext {
  readonly kind: string;
  readonly name: string | symbol | undefined;
}

/**
 * Whether a decorator was called as a standard (TC39) decorator (TypeScript without `experimentalDecorators`): the
 * second argument is then a context object, where legacy decorators receive a property key or nothing.
 */
export function isStandardDecoratorContext(value: unknown): value is StandardDecoratorContext {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { kind?: unknown }).kind === 'string' &&
    'name' in value
  );
}
