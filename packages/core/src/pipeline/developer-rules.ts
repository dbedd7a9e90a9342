import { getMetadataStorage, type ValidationArguments } from 'class-validator';
import { getValidatorMetadata } from '../metadata/validator-metadata';
import type { ValidatorMetadata } from '../metadata/types';
import type { ObjectSchema, ParamSchema } from '../types/schema';
import type { ValidationIssue } from '../types/execution';
import { describeReceived, issue } from './messages';
import { CLASS_VALIDATOR_RULES } from './reference-validation';
import { joinPath } from './normalizer';

/**
 * The compiled path checks every constraint the IR can say. A developer may also put class-validator rules on a DTO
 * that the IR cannot say (`@IsEmail`, `@Contains`, a custom `@Validate(...)` constraint). Those rules run here, for
 * that class only, straight from class-validator's metadata for the class: its `validate()` would scan every class it
 * knows for each object (the cost grows with the number of DTO classes an app registers).
 *
 * Rules the IR captures exactly are not run again. A class that uses `@ValidateIf` (or another rule the compiled path
 * cannot honour before validation) is validated on the reference path instead.
 */
const CAPTURED_BY_THE_IR: ReadonlySet<string> = new Set([
  'isString', 'isInt', 'isNumber', 'isBoolean', 'isObject', 'isArray',
  'min', 'max', 'isPositive', 'isNegative', 'isDivisibleBy',
  'minLength', 'maxLength', 'isLength', 'isIn', 'equals', 'isEnum',
  'arrayMinSize', 'arrayMaxSize', 'arrayNotEmpty',
]);

export type DeveloperRulesPlan =
  | { readonly kind: 'none' }
  | { readonly kind: 'reference'; readonly reason: string }
  | { readonly kind: 'check'; readonly check: (instance: object, path: string, issues: ValidationIssue[]) => Promise<void> };

interface PropertyRules {
  readonly name: string;
  readonly rules: readonly ValidatorMetadata[];
  readonly optional: boolean;
  readonly schema?: ParamSchema;
}

interface NestedProperty {
  readonly name: string;
  readonly schema: ObjectSchema;
}

const plans = new WeakMap<ObjectSchema, DeveloperRulesPlan>();

export function developerRulesPlan(schema: ObjectSchema): DeveloperRulesPlan {
  let plan = plans.get(schema);
  if (!plan) {
    plan = buildPlan(schema, new Set());
    plans.set(schema, plan);
  }
  return plan;
}

function nestedObject(schema: ParamSchema): ObjectSchema | undefined {
  if (schema.kind === 'object' && schema.dto) return schema;
  if (schema.kind === 'array' && schema.items.kind === 'object' && schema.items.dto) return schema.items;
  return undefined;
}

function buildPlan(schema: ObjectSchema, visiting: Set<ObjectSchema>): DeveloperRulesPlan {
  if (!schema.dto || visiting.has(schema)) return { kind: 'none' };
  visiting.add(schema);
  const ownRules: PropertyRules[] = [];
  const byProperty = new Map<string, ValidatorMetadata[]>();
  for (const rule of getValidatorMetadata(schema.dto, { developerRulesOnly: true })) {
    if (rule.type === 'conditionalValidation' && rule.name !== 'isOptional') {
      return { kind: 'reference', reason: `${schema.dto.name}.${rule.propertyName} uses @ValidateIf` };
    }
    if (rule.type === 'customValidation' && !CAPTURED_BY_THE_IR.has(rule.name ?? '')) {
      if (!rule.constraintClass) return { kind: 'reference', reason: `${schema.dto.name}.${rule.propertyName} has a rule without a constraint class` };
      const list = byProperty.get(rule.propertyName) ?? [];
      list.push(rule);
      byProperty.set(rule.propertyName, list);
    } else if (!['customValidation', 'conditionalValidation', 'nestedValidation', 'whitelistValidation', 'isDefined'].includes(rule.type)) {
      return { kind: 'reference', reason: `${schema.dto.name}.${rule.propertyName} uses a ${rule.type} rule` };
    }
  }
  for (const [name, rules] of byProperty) {
    const property = schema.properties.find((candidate) => candidate.name === name);
    ownRules.push({ name, rules, optional: property ? !property.required : true, ...(property ? { schema: property.schema } : {}) });
  }
  const nested: Array<NestedProperty & { readonly plan: DeveloperRulesPlan }> = [];
  for (const property of schema.properties) {
    const child = nestedObject(property.schema);
    if (!child) continue;
    const plan = buildPlan(child, visiting);
    if (plan.kind === 'reference') return plan;
    if (plan.kind === 'check') nested.push({ name: property.name, schema: child, plan });
  }
  visiting.delete(schema);
  if (ownRules.length === 0 && nested.length === 0) return { kind: 'none' };
  const targetName = schema.dto.name;
  return {
    kind: 'check',
    check: async (instance, path, issues) => {
      const record = instance as Record<string, unknown>;
      for (const property of ownRules) {
        const value = record[property.name];
        if ((value === undefined || value === null) && property.optional) continue;
        for (const rule of property.rules) {
          const issue = await runRule(rule, targetName, property, record, value, joinPath(path, property.name));
          if (issue) issues.push(issue);
        }
      }
      for (const child of nested) {
        if (child.plan.kind !== 'check') continue;
        const value = record[child.name];
        const childPath = joinPath(path, child.name);
        if (Array.isArray(value)) {
          for (let index = 0; index < value.length; index++) {
            const item = value[index];
            if (typeof item === 'object' && item !== null) await child.plan.check(item, joinPath(childPath, index), issues);
          }
        } else if (typeof value === 'object' && value !== null) await child.plan.check(value, childPath, issues);
      }
    },
  };
}

async function runRule(rule: ValidatorMetadata, targetName: string, propertyRules: PropertyRules, object: object, value: unknown, path: string): Promise<ValidationIssue | undefined> {
  const property = propertyRules.name;
  const constraints = getMetadataStorage().getTargetValidatorConstraints(rule.constraintClass!);
  const values = rule.each && (Array.isArray(value) || value instanceof Set || value instanceof Map)
    ? [...(value instanceof Map ? value.values() : value)]
    : [value];
  for (const constraint of constraints) {
    for (const item of values) {
      const args: ValidationArguments = { targetName, property, object, value: item, constraints: [...rule.constraints] };
      let valid = constraint.instance.validate(item, args);
      if (valid instanceof Promise) valid = await valid;
      if (!valid) {
        // The same issue the reference path renders for this rule: a known rule through the shared table, else its message.
        const name = rule.name ?? constraint.name ?? 'custom';
        const known = CLASS_VALIDATOR_RULES[name];
        if (known && propertyRules.schema) return issue(path, known, propertyRules.schema, value);
        const text = renderMessage(rule.message ?? constraint.instance.defaultMessage?.(args) ?? `${property} is invalid`, args);
        return { path, rule: name, expected: text, received: describeReceived(item), message: `"${path}" is invalid: ${text}.` };
      }
    }
  }
  return undefined;
}

/** class-validator's message tokens: `$property`, `$value`, `$target`, `$constraint1`... */
function renderMessage(message: unknown, args: ValidationArguments): string {
  const text = typeof message === 'function' ? String((message as (args: ValidationArguments) => unknown)(args)) : String(message);
  return text
    .replace(/\$constraint(\d+)/g, (_, index: string) => String(args.constraints[Number(index) - 1]))
    .replace(/\$property/g, args.property)
    .replace(/\$target/g, args.targetName)
    .replace(/\$value/g, String(args.value));
}
