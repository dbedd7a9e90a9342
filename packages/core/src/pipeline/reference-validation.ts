import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validate, type ValidationError, type ValidatorOptions } from 'class-validator';
import { getValidatorMetadata } from '../metadata/validator-metadata';
import type { Constructor, ObjectSchema, ParamSchema } from '../types/schema';
import type { ValidationIssue } from '../types/execution';
import { constraintChecks, constraintHolds } from './constraints';
import { issue } from './messages';
import { issueRuleOf } from '../rules/class-validator';
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
  await flatten(errors, schema, '', instance, issues);
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

/**
 * class-validator's errors as issues. `owner`: the object whose properties `errors` are about (a rule applied to each
 * item is re-run on the items to name the first that fails: class-validator reports the whole array).
 */
async function flatten(
  errors: readonly ValidationError[],
  schema: ParamSchema | undefined,
  parentPath: string,
  owner: object,
  out: ValidationIssue[],
): Promise<void> {
  for (const error of errors) {
    const isIndex = schema?.kind === 'array' && /^\d+$/.test(error.property);
    const path = isIndex ? joinPath(parentPath, Number(error.property)) : joinPath(parentPath, error.property);
    const propertySchema = childSchema(schema, error.property);
    const constraints = error.constraints ?? {};
    const names = Object.keys(constraints);
    if (names.length > 0) {
      const name = names.find((candidate) => issueRuleOf(candidate) !== undefined) ?? names[0]!;
      const known = issueRuleOf(name);
      const rule = known ?? name;
      if (known !== undefined && propertySchema) {
        let itemIndex = -1;
        if (propertySchema.kind === 'array' && Array.isArray(error.value)) {
          // A developer's rule with `each` (re-run by class-validator), else an IR item constraint of that rule.
          if (schema?.kind === 'object' && schema.dto)
            itemIndex = await firstFailingItem(schema.dto, error.property, name, owner, error.value);
          if (itemIndex < 0) itemIndex = firstItemBreaking(propertySchema.items, rule, error.value);
        }
        out.push(knownRuleIssue(path, rule, propertySchema, error.value, itemIndex));
      } else
        out.push({
          path,
          rule,
          expected: constraints[name]!,
          message: `"${path}" is invalid: ${constraints[name]}.`,
        });
    }
    if (error.children && error.children.length > 0) {
      const value: unknown = error.value;
      await flatten(
        error.children,
        propertySchema,
        path,
        typeof value === 'object' && value !== null ? value : owner,
        out,
      );
    }
  }
}

/**
 * The issue of a rule the schema describes (`rule`: its name in the IR) on a property's value, or, for a rule applied
 * to each item of an array (`itemIndex` >= 0), on that item: its index and the value received, described by the
 * items' schema (`"attendees[1]" must be ..., but received "not-an-email"`). Both paths word it so.
 */
export function knownRuleIssue(
  path: string,
  rule: string,
  schema: ParamSchema,
  value: unknown,
  itemIndex: number,
): ValidationIssue {
  if (itemIndex >= 0 && schema.kind === 'array' && Array.isArray(value))
    return issue(joinPath(path, itemIndex), rule, schema.items, value[itemIndex]);
  return issue(path, rule, schema, value);
}

/** The index of the first item that breaks an IR constraint of `items` with this issue rule, or `-1`. */
function firstItemBreaking(items: ParamSchema, rule: string, values: readonly unknown[]): number {
  const checks = constraintChecks(items).filter((check) => check.rule === rule);
  if (checks.length === 0) return -1;
  return values.findIndex((value) => checks.some((check) => !constraintHolds(check, value)));
}

/**
 * The index of the first item of `items` (the value of `property` of `object`, a `dtoClass` instance) that fails the
 * class-validator rule named `name` applied with `each`, by class-validator's own constraint; `-1` when there is no
 * such rule or every item passes.
 */
async function firstFailingItem(
  dtoClass: Function,
  property: string,
  name: string,
  object: object,
  items: readonly unknown[],
): Promise<number> {
  const storage = getMetadataStorage();
  for (const rule of getValidatorMetadata(dtoClass)) {
    if (rule.propertyName !== property || !rule.each || rule.constraintClass === undefined) continue;
    const constraints = storage.getTargetValidatorConstraints(rule.constraintClass);
    if ((rule.name ?? constraints[0]?.name) !== name) continue;
    for (let at = 0; at < items.length; at++) {
      const value = items[at];
      for (const constraint of constraints) {
        const instance = constraint.instance as {
          validate(value: unknown, args: object): boolean | Promise<boolean>;
        };
        const args = { targetName: dtoClass.name, property, object, value, constraints: [...rule.constraints] };
        if (!(await instance.validate(value, args))) return at;
      }
    }
  }
  return -1;
}
