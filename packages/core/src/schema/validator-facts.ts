import type { ValidatorMetadata } from '../metadata/types';
import type { EnumValue, NumericBounds, ParamSchema } from '../types/schema';
import { jsonEquals } from './json-equals';
import { formatMeantBy } from '../rules/validator-js';
import { kindImpliedBy, type ImpliedKind } from '../rules/class-validator';

/** Constraints read from class-validator rules that JSON Schema can say. */
export interface ValueFacts extends NumericBounds {
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly format?: string;
  readonly enum?: readonly EnumValue[];
  /** `IsNotEmpty`: a string needs at least one character. */
  readonly notEmpty?: boolean;
}

export type { ImpliedKind } from '../rules/class-validator';

/** What the class-validator rules of one property say, for the IR. */
export interface ValidatorFacts {
  readonly optional: boolean;
  readonly isArray: boolean;
  /** `ValidateNested()` (on the value) / `ValidateNested({ each: true })` (on the elements). */
  readonly nested: boolean;
  readonly nestedEach: boolean;
  readonly kind?: ImpliedKind;
  readonly itemKind?: ImpliedKind;
  readonly value: ValueFacts;
  readonly items: ValueFacts;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems?: boolean;
}

interface MutableFacts {
  optional: boolean;
  isArray: boolean;
  nested: boolean;
  nestedEach: boolean;
  kind?: ImpliedKind;
  itemKind?: ImpliedKind;
  value: Record<string, unknown>;
  items: Record<string, unknown>;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
}

function number(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function patternOf(pattern: unknown, modifiers: unknown): string | undefined {
  if (pattern instanceof RegExp) return pattern.flags.replace('u', '') === '' ? pattern.source : undefined;
  if (typeof pattern === 'string' && (modifiers === undefined || modifiers === '' || modifiers === 'u')) return pattern;
  return undefined;
}

function tighterMin(current: unknown, next: number | undefined): number | undefined {
  if (next === undefined) return current as number | undefined;
  return typeof current === 'number' ? Math.max(current, next) : next;
}

function tighterMax(current: unknown, next: number | undefined): number | undefined {
  if (next === undefined) return current as number | undefined;
  return typeof current === 'number' ? Math.min(current, next) : next;
}

function intersect(current: unknown, next: readonly EnumValue[]): readonly EnumValue[] {
  if (!Array.isArray(current)) return next;
  return (current as EnumValue[]).filter((value) => next.some((other) => jsonEquals(value, other)));
}

function enumList(values: unknown): EnumValue[] | undefined {
  if (!Array.isArray(values)) return undefined;
  const allowed = values.filter(
    (value): value is EnumValue =>
      value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean',
  );
  return allowed.length === values.length ? allowed : undefined;
}

function applyValueRule(facts: Record<string, unknown>, name: string, constraints: readonly unknown[]): void {
  const [first, second] = constraints;
  switch (name) {
    case 'min':
      facts['minimum'] = tighterMin(facts['minimum'], number(first));
      return;
    case 'max':
      facts['maximum'] = tighterMax(facts['maximum'], number(first));
      return;
    case 'isPositive':
      facts['exclusiveMinimum'] = tighterMin(facts['exclusiveMinimum'], 0);
      return;
    case 'isNegative':
      facts['exclusiveMaximum'] = tighterMax(facts['exclusiveMaximum'], 0);
      return;
    case 'isDivisibleBy':
      if (number(first) !== undefined && (first as number) > 0) facts['multipleOf'] = first;
      return;
    case 'minLength':
      facts['minLength'] = tighterMin(facts['minLength'], number(first));
      return;
    case 'maxLength':
      facts['maxLength'] = tighterMax(facts['maxLength'], number(first));
      return;
    case 'isLength':
      facts['minLength'] = tighterMin(facts['minLength'], number(first));
      facts['maxLength'] = tighterMax(facts['maxLength'], number(second));
      return;
    case 'isNotEmpty':
      facts['notEmpty'] = true;
      return;
    case 'matches': {
      const pattern = patternOf(first, second);
      if (pattern !== undefined && facts['pattern'] === undefined) facts['pattern'] = pattern;
      return;
    }
    case 'isIn': {
      const values = enumList(first);
      if (values !== undefined) facts['enum'] = intersect(facts['enum'], values);
      return;
    }
    case 'equals': {
      const values = enumList([first]);
      if (values !== undefined) facts['enum'] = intersect(facts['enum'], values);
      return;
    }
    case 'isEnum': {
      const values = enumList(second);
      if (values !== undefined) facts['enum'] = intersect(facts['enum'], values);
      return;
    }
    default: {
      // A format rule with default options is the format (`rules/validator-js.ts`); with others, its own rule.
      const format = formatMeantBy(name, constraints);
      if (format !== undefined && facts['format'] === undefined) facts['format'] = format;
    }
  }
}

/** Reads the class-validator rules of one property into facts (rules JSON Schema cannot say are left out). */
export function collectValidatorFacts(rules: readonly ValidatorMetadata[]): ValidatorFacts {
  const facts: MutableFacts = {
    optional: false,
    isArray: false,
    nested: false,
    nestedEach: false,
    value: {},
    items: {},
  };
  for (const rule of rules) {
    if (rule.type === 'nestedValidation') {
      if (rule.each) facts.nestedEach = true;
      else facts.nested = true;
      continue;
    }
    if (rule.type === 'conditionalValidation') {
      if (rule.name === 'isOptional') facts.optional = true;
      continue;
    }
    if (rule.name === undefined) continue;
    const name = rule.name;
    switch (name) {
      case 'isArray':
        if (!rule.each) facts.isArray = true;
        continue;
      case 'arrayMinSize':
        facts.minItems = tighterMin(facts.minItems, number(rule.constraints[0]));
        facts.isArray = true;
        continue;
      case 'arrayMaxSize':
        facts.maxItems = tighterMax(facts.maxItems, number(rule.constraints[0]));
        facts.isArray = true;
        continue;
      case 'arrayNotEmpty':
        facts.minItems = tighterMin(facts.minItems, 1);
        facts.isArray = true;
        continue;
      case 'arrayUnique':
        facts.uniqueItems = true;
        facts.isArray = true;
        continue;
    }
    const kind = kindImpliedBy(name);
    if (rule.each) {
      if (kind !== undefined && facts.itemKind === undefined) facts.itemKind = kind;
      applyValueRule(facts.items, name, rule.constraints);
    } else {
      if (kind !== undefined && facts.kind === undefined) facts.kind = kind;
      applyValueRule(facts.value, name, rule.constraints);
    }
  }
  return facts;
}

/** Adds the constraints class-validator enforces to a schema: bounds take the tighter value, enums intersect. */
export function mergeValueFacts(schema: ParamSchema, facts: ValueFacts): ParamSchema {
  switch (schema.kind) {
    case 'int':
    case 'float':
      return withoutUndefined({
        ...schema,
        minimum: tighterMin(schema.minimum, facts.minimum),
        maximum: tighterMax(schema.maximum, facts.maximum),
        exclusiveMinimum: tighterMin(schema.exclusiveMinimum, facts.exclusiveMinimum),
        exclusiveMaximum: tighterMax(schema.exclusiveMaximum, facts.exclusiveMaximum),
        multipleOf: schema.multipleOf ?? facts.multipleOf,
        enum: mergeEnum(schema.enum, facts.enum),
      });
    case 'string':
      return withoutUndefined({
        ...schema,
        minLength: tighterMin(
          schema.minLength,
          facts.notEmpty === true ? tighterMin(facts.minLength, 1) : facts.minLength,
        ),
        maxLength: tighterMax(schema.maxLength, facts.maxLength),
        // A decorated class's lengths count as class-validator's do (`rules/string.ts`).
        lengthCount:
          schema.lengthCount ??
          (facts.minLength !== undefined || facts.maxLength !== undefined || facts.notEmpty === true
            ? 'class-validator'
            : undefined),
        pattern: schema.pattern ?? facts.pattern,
        format: schema.format ?? facts.format,
        enum: mergeEnum(schema.enum, facts.enum),
      });
    case 'bool':
    case 'date':
    case 'datetime':
      return withoutUndefined({ ...schema, enum: mergeEnum(schema.enum, facts.enum) });
    default:
      return schema;
  }
}

function mergeEnum(
  current: readonly EnumValue[] | undefined,
  next: readonly EnumValue[] | undefined,
): readonly EnumValue[] | undefined {
  if (next === undefined) return current;
  return current === undefined ? next : intersect(current, next);
}

function withoutUndefined<T extends object>(value: T): T {
  const result: Record<string, unknown> = {};
  for (const key in value) if (value[key] !== undefined) result[key] = value[key];
  return result as T;
}
