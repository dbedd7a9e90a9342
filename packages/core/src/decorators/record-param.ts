import { recordDeclarationPosition } from '../metadata/declaration-order';
import { addParamMetadata } from '../metadata/param-metadata';
import type { ParamMetadata } from '../metadata/types';
import { decoratorMessages } from './messages';
import { isStandardDecoratorContext } from './standard-decorators';

/**
 * What every parameter decorator does, and all it does (type-graphql's `registerClassField`): check that it sits on
 * an instance property with a string name, and store the raw record on the class. Nothing is resolved here: the
 * record becomes IR (schema/build-definition.ts), and class-validator rules (validation/dto-rules.ts), when the
 * definition is built, where class order no longer matters.
 */
export function recordParam(
  decorator: ParamMetadata['decorator'],
  prototype: object,
  propertyKey: string | symbol,
  build: (target: Function, propertyName: string) => ParamMetadata,
): void {
  if (isStandardDecoratorContext(propertyKey))
    throw decoratorMessages.standardDecorator(decorator, String(propertyKey.name));
  const targetName = typeof prototype === 'function' ? prototype.name : prototype.constructor.name;
  if (typeof propertyKey === 'symbol')
    throw decoratorMessages.symbolProperty(decorator, targetName, String(propertyKey));
  if (typeof prototype === 'function') throw decoratorMessages.staticProperty(decorator, targetName, propertyKey);
  const record = build(prototype.constructor, propertyKey);
  Object.freeze(record.options);
  Object.freeze(record);
  addParamMetadata(record.target, record);
  recordDeclarationPosition(record);
}
