import type { ObjectSchema, ParamSchema } from '../types/schema';
import { clipText } from './render-value';
import { compilePattern } from './value-checks';
import { lengthWithin } from '../rules/string';
import { isInteger } from '../rules/integer';
import { isFiniteNumber, withinBounds } from '../rules/number';
import { isBoolean } from '../rules/boolean';
import { isDateOnly } from '../rules/date';
import { DATE_TIME_DESCRIPTION, isOffsetDateTime } from '../rules/date-time';
import { isMember } from '../rules/enum';
import { itemCountWithin, hasUniqueItems } from '../rules/array';
import { formatHolds } from '../rules/format';

/**
 * Whether a JSON value conforms to an IR schema, composed from each kind's rule (`rules/`): nothing is decided here
 * but how the kinds nest. Used where class-validator decorators cannot say the rule
 * (union variants, arrays of arrays, nullable elements, objects with free-form extra keys) and to check
 * documented defaults. `null` for an optional object property counts as absent, as in the pipeline.
 */
export function conformsTo(value: unknown, schema: ParamSchema): boolean {
  if (value === null)
    return schema.nullable === true || schema.kind === 'any' || (schema.enum?.includes(null) ?? false);
  if (value === undefined) return false;
  if (schema.enum !== undefined && !isMember(schema.enum, value)) return false;
  switch (schema.kind) {
    case 'string':
      return (
        typeof value === 'string' &&
        lengthWithin(value, schema.minLength, schema.maxLength, schema.lengthCount) &&
        (schema.pattern === undefined || compilePattern(schema.pattern).test(value)) &&
        (schema.format === undefined || formatHolds(schema.format, value))
      );
    case 'int':
      return isInteger(value) && withinBounds(value, schema);
    case 'float':
      return isFiniteNumber(value) && withinBounds(value, schema);
    case 'bool':
      return isBoolean(value);
    case 'date':
      return isDateOnly(value);
    case 'datetime':
      return isOffsetDateTime(value);
    case 'array':
      return (
        Array.isArray(value) &&
        itemCountWithin(value, schema.minItems, schema.maxItems) &&
        (schema.uniqueItems !== true || hasUniqueItems(value)) &&
        value.every((item) => conformsTo(item, schema.items))
      );
    case 'object':
      return objectConforms(value, schema);
    case 'union':
      return schema.variants.some((variant) => conformsTo(value, variant));
    case 'any':
      return true;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objectConforms(value: unknown, schema: ObjectSchema): boolean {
  if (!isPlainObject(value)) return false;
  const declared = new Set<string>();
  for (const property of schema.properties) {
    declared.add(property.name);
    if (property.context !== undefined) continue;
    const propertyValue = value[property.name];
    if (
      propertyValue === undefined ||
      (propertyValue === null && !property.required && property.schema.nullable !== true)
    ) {
      if (property.required) return false;
      continue;
    }
    if (!conformsTo(propertyValue, property.schema)) return false;
  }
  for (const key of Object.keys(value)) {
    if (declared.has(key)) continue;
    if (schema.additionalProperties === false) return false;
    if (schema.additionalProperties !== true && !conformsTo(value[key], schema.additionalProperties)) return false;
  }
  return true;
}

const KIND_NAMES: Readonly<Record<ParamSchema['kind'], string>> = {
  string: 'a string',
  int: 'an integer',
  float: 'a number',
  bool: 'a boolean',
  date: 'a date (YYYY-MM-DD)',
  datetime: DATE_TIME_DESCRIPTION,
  array: 'an array',
  object: 'an object',
  union: 'one of several shapes',
  any: 'any value',
};

/** A short description of what a schema accepts, for validation messages: `an array of integers`, `a string or null`. */
export function describeSchema(schema: ParamSchema): string {
  let text: string;
  if (schema.enum !== undefined) {
    // At most 20 values, each clipped: an imported enum of thousands of long values stays one short line.
    const shown = schema.enum.slice(0, 20).map((value) => clipText(JSON.stringify(value), 60));
    text = `one of ${shown.join(', ')}${schema.enum.length > 20 ? ` (and ${schema.enum.length - 20} more)` : ''}`;
  } else if (schema.kind === 'array') text = `an array whose elements are each ${describeSchema(schema.items)}`;
  else if (schema.kind === 'union') text = schema.variants.map(describeSchema).join(' or ');
  else if (schema.kind === 'object' && schema.properties.length > 0)
    text = `an object with ${schema.properties
      .filter((property) => property.context === undefined)
      .map((property) => `${property.name}${property.required ? '' : '?'}`)
      .join(', ')}`;
  else text = KIND_NAMES[schema.kind];
  return schema.nullable === true ? `${text} or null` : text;
}
