import { injectable } from 'tsyringe';
import { defineCommandMetadata } from '../metadata/command-metadata';
import type { CommandOptions } from '../types/param-options';
import { isStandardDecoratorContext } from './standard-decorators';

/**
 * A tool command: a class with `execute(params, invocation)`. Records the options and makes the class injectable
 * (tsyringe); the definition is built (and checked) when the command is registered.
 */
export function Command(options: CommandOptions): ClassDecorator {
  return (target: Function, context?: unknown) => {
    if (isStandardDecoratorContext(context)) {
      // Applied as a TC39 decorator (no experimentalDecorators): recorded, and refused with the fix at registration.
      defineCommandMetadata(
        target,
        Object.freeze({ target, options: Object.freeze({ ...options }), decoratorSyntax: 'tc39' }),
      );
      return;
    }
    defineCommandMetadata(target, Object.freeze({ target, options: Object.freeze({ ...options }) }));
    // Constructor injection works without a second decorator (the tsyringe resolver reads what this records).
    injectable()(target as unknown as new (...args: unknown[]) => unknown);
  };
}
