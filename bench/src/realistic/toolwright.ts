import { IsEmail } from 'class-validator';
import { ArrayOf, Command, DateTime, ToolParam, type JsonSchemaToolDeclaration } from '@toolwright/core';
import { namedClass, type Ctor } from '../generate-toolwright';
import type { FieldSpec, ObjectSpec, ScalarSpec, ShapeSpec, ValueSpec } from './shapes';

/**
 * A realistic shape as toolwright sees it: a decorated class command (decorators called as functions, what
 * TypeScript's emitted code does; e-mail fields carry class-validator's `@IsEmail()`, as the docs show) and a
 * JSON-Schema tool (what an MCP server declares; its `format: "email"` is enforced, as every format shown to a model is).
 * Only the public API of @toolwright/core is used, so this runs against any branch.
 */

/** What every contender's handler does with valid parameters: the same tiny amount of work. */
export const handlerResult = (shape: ShapeSpec) => shape.index;

type ParamOptions = Parameters<typeof ToolParam>[0] & object;

function scalarOptions(spec: ScalarSpec): ParamOptions {
  switch (spec.kind) {
    case 'string':
      return { type: 'string', minLength: spec.minLength, maxLength: spec.maxLength };
    case 'int':
      return { type: 'int', min: spec.min, max: spec.max };
    case 'number':
      return { type: 'float', min: spec.min };
    case 'boolean':
      return { type: 'bool' };
    case 'enum':
      return { type: 'string', enum: spec.values };
    case 'datetime':
      return { type: 'datetime' };
    default:
      return { type: 'string' };
  }
}

function nestedClass(spec: ObjectSpec): Ctor {
  const Dto = namedClass(spec.className);
  decorateFields(Dto.prototype as object, spec.fields);
  return Dto;
}

function decorateField(proto: object, field: FieldSpec): void {
  const base = { description: `The ${field.name}`, required: field.required };
  const spec: ValueSpec = field.value;
  if (spec.kind === 'object') {
    const Dto = nestedClass(spec);
    ToolParam({ ...base, type: () => Dto })(proto, field.name);
  } else if (spec.kind === 'array') {
    const bounds = { ...base, minItems: spec.minItems, maxItems: spec.maxItems };
    if (spec.items.kind === 'object') {
      const Item = nestedClass(spec.items);
      ArrayOf(() => Item, bounds)(proto, field.name);
    } else {
      const { type, ...constraints } = scalarOptions(spec.items);
      ArrayOf(type as 'string', { ...bounds, ...constraints })(proto, field.name);
      if (spec.items.kind === 'email') IsEmail({}, { each: true })(proto, field.name);
    }
  } else if (spec.kind === 'datetime') {
    DateTime(base)(proto, field.name);
  } else {
    ToolParam({ ...base, ...scalarOptions(spec) })(proto, field.name);
    if (spec.kind === 'email') IsEmail()(proto, field.name);
  }
}

function decorateFields(proto: object, fields: readonly FieldSpec[]): void {
  for (const field of fields) decorateField(proto, field);
}

/** The shape as a decorated class command named `shape.name` (its DTO `Tool<index>Params`). */
export function classCommand(shape: ShapeSpec): Ctor {
  const Params = namedClass(`Tool${shape.index}Params`);
  decorateFields(Params.prototype as object, shape.fields);
  const result = handlerResult(shape);
  const holder = {
    [`Tool${shape.index}Command`]: class {
      execute() {
        return result;
      }
    },
  };
  const CommandClass = holder[`Tool${shape.index}Command`] as Ctor;
  Command({ name: shape.name, description: shape.description, params: Params })(CommandClass);
  return CommandClass;
}

function scalarSchema(spec: ScalarSpec): Record<string, unknown> {
  switch (spec.kind) {
    case 'string':
      return { type: 'string', minLength: spec.minLength, maxLength: spec.maxLength };
    case 'int':
      return { type: 'integer', minimum: spec.min, maximum: spec.max };
    case 'number':
      return { type: 'number', minimum: spec.min };
    case 'boolean':
      return { type: 'boolean' };
    case 'enum':
      return { type: 'string', enum: [...spec.values] };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    default:
      return { type: 'string', format: 'email' };
  }
}

function valueSchema(spec: ValueSpec): Record<string, unknown> {
  if (spec.kind === 'object') return objectSchema(spec.fields);
  if (spec.kind === 'array')
    return { type: 'array', items: valueSchema(spec.items), minItems: spec.minItems, maxItems: spec.maxItems };
  return scalarSchema(spec);
}

export function objectSchema(fields: readonly FieldSpec[]): Record<string, unknown> {
  return {
    type: 'object',
    properties: Object.fromEntries(
      fields.map((field) => [field.name, { ...valueSchema(field.value), description: `The ${field.name}` }]),
    ),
    required: fields.filter((field) => field.required).map((field) => field.name),
    additionalProperties: false,
  };
}

/** The shape as a JSON-Schema tool declaration (each call builds new schema objects: nothing is shared between tools). */
export function jsonSchemaDeclaration(shape: ShapeSpec): JsonSchemaToolDeclaration {
  return { name: shape.name, description: shape.description, parameters: objectSchema(shape.fields) };
}
