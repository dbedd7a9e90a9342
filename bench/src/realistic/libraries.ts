import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsISO8601,
  IsNumber,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { z } from 'zod';
import { namedClass, type Ctor } from '../generate-toolwright';
import type { AjvTool } from '../scenario/ajv';
import type { CvTool } from '../scenario/class-validator';
import type { ZodTool } from '../scenario/zod';
import { objectSchema } from './toolwright';
import type { FieldSpec, ScalarSpec, ShapeSpec, ValueSpec } from './shapes';

/**
 * The library contenders of the realistic shapes, each built from the same shape: ajv (one compiled validator per
 * schema, ajv-formats' `date-time`, and its `email` when the tool kind checks e-mail), zod 4 (one schema per shape) and
 * class-transformer + class-validator (one DTO class per shape and per nested object). The pipelines around them are
 * the scenario's (`ajvPipeline`, `zodPipeline`, `ctcvPipeline`).
 */

/**
 * An ajv instance for one tool kind: `date-time` from ajv-formats (RFC 3339, offset required), and `email` from
 * ajv-formats when the kind checks e-mail (both kinds do: toolwright enforces `format: "email"`), else an annotation.
 */
export function createRealisticAjv(checksEmail: boolean): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv, checksEmail ? ['date-time', 'email'] : ['date-time']);
  if (!checksEmail) ajv.addFormat('email', true);
  return ajv;
}

export function ajvTool(ajv: Ajv2020, shape: ShapeSpec, handler: () => unknown): AjvTool {
  return { validate: ajv.compile(objectSchema(shape.fields)), handler };
}

function zodScalar(spec: ScalarSpec, checksEmail: boolean): z.ZodType {
  switch (spec.kind) {
    case 'string':
      return z.string().min(spec.minLength).max(spec.maxLength);
    case 'int':
      return z.int().min(spec.min).max(spec.max);
    case 'number':
      return z.number().min(spec.min);
    case 'boolean':
      return z.boolean();
    case 'enum':
      return z.enum(spec.values as [string, ...string[]]);
    case 'datetime':
      return z.iso.datetime({ offset: true });
    default:
      return checksEmail ? z.email() : z.string();
  }
}

function zodValue(spec: ValueSpec, checksEmail: boolean): z.ZodType {
  if (spec.kind === 'object') return zodObject(spec.fields, checksEmail);
  if (spec.kind === 'array') return z.array(zodValue(spec.items, checksEmail)).min(spec.minItems).max(spec.maxItems);
  return zodScalar(spec, checksEmail);
}

/** A `z.object` (unknown keys stripped, as toolwright drops them); `null` for an optional field means absent. */
function zodObject(fields: readonly FieldSpec[], checksEmail: boolean): z.ZodType {
  return z.object(
    Object.fromEntries(
      fields.map((field) => {
        const schema = zodValue(field.value, checksEmail);
        return [field.name, field.required ? schema : schema.nullish()];
      }),
    ),
  );
}

export function zodTool(shape: ShapeSpec, checksEmail: boolean, handler: () => unknown): ZodTool {
  return { schema: zodObject(shape.fields, checksEmail), handler };
}

function decorateCvScalar(spec: ScalarSpec, proto: object, name: string, each: boolean): void {
  const options = { each };
  switch (spec.kind) {
    case 'string':
      IsString(options)(proto, name);
      Length(spec.minLength, spec.maxLength, options)(proto, name);
      break;
    case 'int':
      IsInt(options)(proto, name);
      Min(spec.min, options)(proto, name);
      Max(spec.max, options)(proto, name);
      break;
    case 'number':
      IsNumber({ allowNaN: false, allowInfinity: false }, options)(proto, name);
      Min(spec.min, options)(proto, name);
      break;
    case 'boolean':
      IsBoolean(options)(proto, name);
      break;
    case 'enum':
      IsIn([...spec.values], options)(proto, name);
      break;
    case 'datetime':
      IsISO8601({ strict: true }, options)(proto, name);
      break;
    default:
      IsEmail({}, options)(proto, name);
      break;
  }
}

function cvClass(className: string, fields: readonly FieldSpec[]): Ctor {
  const Dto = namedClass(`Cv${className}`);
  const proto = Dto.prototype as object;
  for (const field of fields) {
    const { name, value } = field;
    if (!field.required) IsOptional()(proto, name);
    if (value.kind === 'object') {
      const Nested = cvClass(value.className, value.fields);
      ValidateNested()(proto, name);
      Type(() => Nested)(proto, name);
    } else if (value.kind === 'array') {
      IsArray()(proto, name);
      ArrayMinSize(value.minItems)(proto, name);
      ArrayMaxSize(value.maxItems)(proto, name);
      if (value.items.kind === 'object') {
        const Item = cvClass(value.items.className, value.items.fields);
        ValidateNested({ each: true })(proto, name);
        Type(() => Item)(proto, name);
      } else decorateCvScalar(value.items, proto, name, true);
    } else decorateCvScalar(value, proto, name, false);
  }
  return Dto;
}

/** The shape as a plain class-transformer + class-validator DTO (`CvTool<index>Params`), e-mail checked with `@IsEmail()`. */
export function cvTool(shape: ShapeSpec, handler: () => unknown): CvTool {
  return { dto: cvClass(`Tool${shape.index}Params`, shape.fields), handler };
}
