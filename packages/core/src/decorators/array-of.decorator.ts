import type { ArrayOfOptions, ParamTypeReference } from '../types/param-options';
import { recordParam } from './record-param';

/**
 * An array parameter: `@ArrayOf('string')`, `@ArrayOf('datetime')`, `@ArrayOf(() => ProposalOption, { minItems: 2 })`.
 * Value constraints in the options (enum, min, max, minLength, pattern, ...) apply to each element.
 */
export function ArrayOf(items: ParamTypeReference, options: ArrayOfOptions = {}): PropertyDecorator {
  return (prototype, propertyKey) =>
    recordParam('ArrayOf', prototype, propertyKey, (target, propertyName) => ({
      decorator: 'ArrayOf',
      target,
      propertyName,
      items,
      options: { ...options },
    }));
}
