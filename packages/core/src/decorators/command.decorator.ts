import { injectable } from 'tsyringe';
import { defineCommandMetadata } from '../metadata/command-metadata';
import type { CommandOptions } from './param-options';

/**
 * A tool command: a class with `execute(params, invocation)`. Records the options and makes the class injectable
 * (tsyringe); the definition is built (and checked) when the command is registered.
 */
export function Command(options: CommandOptions): ClassDecorator {
  return (target) => {
    defineCommandMetadata(target, Object.freeze({ target, options: Object.freeze({ ...options }) }));
    // Resolved per call from a child container: constructor injection works without a second decorator.
    injectable()(target as unknown as new (...args: unknown[]) => unknown);
  };
}
