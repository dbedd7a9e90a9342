import type { ToolParamOptions } from '../types/param-options';
import { recordParam } from './record-param';

/**
 * A model-visible parameter. `type` is a kind (`'int'`), a grammar (`'array<datetime>'`) or a DTO thunk
 * (`() => Address`); without it the type is inferred from TypeScript metadata only for `string` and `boolean`.
 */
export function ToolParam(options: ToolParamOptions = {}): PropertyDecorator {
  return (prototype, propertyKey) =>
    recordParam('ToolParam', prototype, propertyKey, (target, propertyName) => ({
      decorator: 'ToolParam',
      target,
      propertyName,
      options: { ...options },
    }));
}
