import { DefinitionError } from '../errors/definition-error';
import { getDesignType } from '../metadata/design-metadata';
import { addParamMetadata } from '../metadata/param-metadata';
import { markToolwrightRules } from '../metadata/validator-metadata';
import type { ParamMetadata } from '../metadata/types';
import type { ObjectSchema } from '../types/schema';
import { definitionMessages } from './messages';
import { isStandardDecoratorContext } from './standard-decorators';
import type { ClassThunk } from './param-options';
import { resolveParamRecord, type PropertyResolution } from './resolve-param';
import { applyPropertyDecorators, validationDecorators } from './validation/validation-plan';

const PLACEHOLDER_PREFIX = 'toolwright:nested:';

/** Records resolved when decorated without a nested DTO: the build reuses them (their IR cannot change later). */
const resolvedRecords = new WeakMap<ParamMetadata, PropertyResolution>();

/** The resolution made when the record was decorated, when it is final (no nested DTO was involved). */
export function resolvedWhenDecorated(record: ParamMetadata): PropertyResolution | undefined {
  return resolvedRecords.get(record);
}
let placeholderCount = 0;

/**
 * What every parameter decorator does: check it sits on an instance property with a string name, store the raw
 * record on the class, and apply the class-validator / class-transformer decorators the record implies.
 */
export function recordParam(
  decorator: ParamMetadata['decorator'],
  prototype: object,
  propertyKey: string | symbol,
  build: (target: Function, propertyName: string) => ParamMetadata,
): void {
  if (isStandardDecoratorContext(propertyKey)) throw definitionMessages.standardDecorator(decorator, String(propertyKey.name));
  const targetName = typeof prototype === 'function' ? prototype.name : prototype.constructor.name;
  if (typeof propertyKey === 'symbol') throw definitionMessages.symbolProperty(decorator, targetName, String(propertyKey));
  if (typeof prototype === 'function') throw definitionMessages.staticProperty(decorator, targetName, propertyKey);
  const record = build(prototype.constructor, propertyKey);
  Object.freeze(record.options);
  Object.freeze(record);
  addParamMetadata(record.target, record);
  applyRecordValidation(prototype, record);
}

/**
 * Derives the property's validation from its record. Nested DTOs are not touched (their thunks may name classes
 * declared later): a placeholder stands for each. A record that cannot be resolved gets no validation here; the
 * DefinitionError is thrown when the definition is built, where class order no longer matters.
 */
function applyRecordValidation(prototype: object, record: ParamMetadata): void {
  const thunks = new Map<string, ClassThunk>();
  let resolution;
  try {
    resolution = resolveParamRecord(record, {
      site: { target: prototype.constructor.name, property: record.propertyName },
      designType: getDesignType(prototype, record.propertyName),
      resolveClass: (thunk): ObjectSchema => {
        const name = `${PLACEHOLDER_PREFIX}${++placeholderCount}`;
        thunks.set(name, thunk);
        return { kind: 'object', name, properties: [], additionalProperties: false };
      },
    });
  } catch (error) {
    if (error instanceof DefinitionError) return;
    throw error;
  }
  if (thunks.size === 0) resolvedRecords.set(record, resolution);
  const decorators = validationDecorators({
    schema: resolution.definition.schema,
    required: resolution.definition.required,
    convertToDate: resolution.convertToDate,
    nestedClass: (schema) => (schema.name !== undefined ? thunks.get(schema.name) : undefined),
  });
  markToolwrightRules(record.target, () => applyPropertyDecorators(prototype, record.propertyName, decorators));
}
