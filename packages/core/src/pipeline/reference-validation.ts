import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError, type ValidatorOptions } from 'class-validator';
import type { Constructor, ObjectSchema, ParamSchema } from '../types/schema';
import type { ValidationIssue } from '../types/execution';
import { issue } from './messages';
import { joinPath } from './keys';
import { instantiatorFor, type Instantiator } from './instantiate';

/**
 * class-validator with whitelist semantics and `forbidUnknownValues`; implicit conversion stays off
 * (the normalizer already did every lossless conversion, and recorded it).
 */
export const CLASS_VALIDATOR_OPTIONS: ValidatorOptions = Object.freeze({
  whitelist: true,
  forbidNonWhitelisted: false,
  forbidUnknownValues: true,
  validationError: { target: false, value: true },
});

export interface ReferenceValidation {
  readonly instance: object | undefined;
  readonly issues: ValidationIssue[];
}

/** class-validator rule names -> toolwright issue rules (shared with the compiled path's developer-rule checks). */
export const CLASS_VALIDATOR_RULES: Readonly<Record<string, string>> = {
  isString: 'type',
  isInt: 'type',
  isNumber: 'type',
  isBoolean: 'type',
  isArray: 'type',
  isObject: 'type',
  nestedValidation: 'type',
  unknownValue: 'type',
  matchesSchema: 'type',
  isDateString: 'format',
  isIso8601: 'format',
  isDateOnly: 'format',
  isOffsetDateTime: 'format',
  isEmail: 'format',
  isUrl: 'format',
  isUuid: 'format',
  isFormat: 'format',
  isIn: 'enum',
  isEnum: 'enum',
  equals: 'enum',
  min: 'minimum',
  max: 'maximum',
  exclusiveMinimum: 'exclusiveMinimum',
  exclusiveMaximum: 'exclusiveMaximum',
  multipleOf: 'multipleOf',
  minLength: 'minLength',
  maxLength: 'maxLength',
  isLength: 'length',
  arrayMinSize: 'minItems',
  arrayMaxSize: 'maxItems',
  arrayUnique: 'uniqueItems',
  matches: 'pattern',
  whitelistValidation: 'unknown-key',
  isDefined: 'required',
};

/**
 * Pipeline step 6, reference path: `plainToInstance` then class-validator, on one DTO class. Every error either
 * library throws becomes an issue; nothing escapes as an exception.
 */
export async function validateWithClassValidator(
  dto: Constructor,
  plain: Record<string, unknown>,
  schema: ObjectSchema,
): Promise<ReferenceValidation> {
  let instance: object;
  try {
    instance = plainToInstance(dto, plain, { enableImplicitConversion: false }) as object;
  } catch (error) {
    return { instance: undefined, issues: [transformIssue(error)] };
  }
  let errors: ValidationError[];
  try {
    errors = await validate(instance, CLASS_VALIDATOR_OPTIONS);
  } catch (error) {
    return { instance, issues: [transformIssue(error)] };
  }
  const issues: ValidationIssue[] = [];
  flatten(errors, schema, '', issues);
  return { instance, issues };
}

/** Why the compiled path's DTO construction failed (an instance of a class, so a DTO instance is never taken for it). */
export class InstantiationFailure {
  constructor(readonly issue: ValidationIssue) {}
}

/** The compiled path's DTO construction (see instantiate.ts); any error it throws becomes an issue. */
export function instantiate(
  schema: ObjectSchema,
  dto: Constructor,
  plain: Record<string, unknown>,
): { instance: object } | { issue: ValidationIssue } {
  const built = instantiateWith(instantiatorFor(schema, dto), plain);
  return built instanceof InstantiationFailure ? { issue: built.issue } : { instance: built };
}

/** `instantiate` with an instantiator the caller holds (the compiled tool's): the instance, or why it failed. */
export function instantiateWith(
  instantiator: Instantiator,
  plain: Record<string, unknown>,
): object | InstantiationFailure {
  try {
    return instantiator(plain);
  } catch (error) {
    return new InstantiationFailure(transformIssue(error));
  }
}

/** The issue of a DTO construction that threw (the executor's compiled path calls its instantiator inline). */
export function instantiationIssue(error: unknown): ValidationIssue {
  return transformIssue(error);
}

function transformIssue(error: unknown): ValidationIssue {
  void error;
  return {
    path: '',
    rule: 'type',
    expected: "a JSON object of the tool's parameters",
    message: "The arguments could not be read into the tool's parameters; send plain values of the documented types.",
  };
}

function childSchema(schema: ParamSchema | undefined, property: string): ParamSchema | undefined {
  if (!schema) return undefined;
  if (schema.kind === 'object') return schema.properties.find((candidate) => candidate.name === property)?.schema;
  if (schema.kind === 'array' && /^\d+$/.test(property)) return schema.items;
  if (schema.kind === 'union') {
    for (const variant of schema.variants) {
      const found = childSchema(variant, property);
      if (found) return found;
    }
  }
  return undefined;
}

function flatten(
  errors: readonly ValidationError[],
  schema: ParamSchema | undefined,
  parentPath: string,
  out: ValidationIssue[],
): void {
  for (const error of errors) {
    const isIndex = schema?.kind === 'array' && /^\d+$/.test(error.property);
    const path = isIndex ? joinPath(parentPath, Number(error.property)) : joinPath(parentPath, error.property);
    const propertySchema = childSchema(schema, error.property);
    const constraints = error.constraints ?? {};
    const names = Object.keys(constraints);
    if (names.length > 0) {
      const name = names.find((candidate) => CLASS_VALIDATOR_RULES[candidate]) ?? names[0]!;
      const rule = CLASS_VALIDATOR_RULES[name] ?? name;
      if (CLASS_VALIDATOR_RULES[name] && propertySchema) out.push(issue(path, rule, propertySchema, error.value));
      else
        out.push({
          path,
          rule,
          expected: constraints[name]!,
          message: `"${path}" is invalid: ${constraints[name]}.`,
        });
    }
    if (error.children && error.children.length > 0) flatten(error.children, propertySchema, path, out);
  }
}
