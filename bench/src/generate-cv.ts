import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsISO8601,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

/**
 * The class-validator side of the registry-size cases: the same five shapes as generate-toolwright.ts, as plain
 * DTO classes. This module does not import @toolwright/core, so a process that loads only it has exactly these
 * classes (and the benchmark's own DTO) in class-validator's global storage.
 */

type Ctor = new () => object;
const SHAPES = 5;

function namedClass(name: string): Ctor {
  return { [name]: class {} }[name] as Ctor;
}

/** `count` plain class-transformer + class-validator DTO classes of the same five shapes (registered globally by their decorators). */
export function generateClassValidatorDtos(count: number): Ctor[] {
  const classes: Ctor[] = [];
  for (let index = 0; index < count; index++) {
    const Dto = namedClass(`Dto${index}`);
    const proto = Dto.prototype as object;
    switch (index % SHAPES) {
      case 0:
        IsString()(proto, 'query');
        Length(1, 200)(proto, 'query');
        IsOptional()(proto, 'limit');
        IsInt()(proto, 'limit');
        Min(1)(proto, 'limit');
        Max(100)(proto, 'limit');
        IsOptional()(proto, 'includeArchived');
        IsBoolean()(proto, 'includeArchived');
        break;
      case 1:
        IsIn(['open', 'closed', 'pending'])(proto, 'status');
        IsISO8601({ strict: true })(proto, 'since');
        IsArray()(proto, 'tags');
        IsString({ each: true })(proto, 'tags');
        break;
      case 2:
        IsNumber({ allowNaN: false, allowInfinity: false })(proto, 'amount');
        Min(0)(proto, 'amount');
        IsIn(['EUR', 'USD', 'GBP'])(proto, 'currency');
        IsOptional()(proto, 'note');
        IsString()(proto, 'note');
        MaxLength(500)(proto, 'note');
        break;
      case 3:
        Matches(/^[a-z0-9-]+$/)(proto, 'id');
        IsArray()(proto, 'fields');
        IsString({ each: true })(proto, 'fields');
        IsOptional()(proto, 'dryRun');
        IsBoolean()(proto, 'dryRun');
        break;
      default: {
        const Item = namedClass(`Dto${index}Item`);
        IsString()(Item.prototype as object, 'sku');
        IsInt()(Item.prototype as object, 'quantity');
        Min(1)(Item.prototype as object, 'quantity');
        IsArray()(proto, 'items');
        ValidateNested({ each: true })(proto, 'items');
        Type(() => Item)(proto, 'items');
        IsString()(proto, 'customer');
        classes.push(Item);
        break;
      }
    }
    classes.push(Dto);
  }
  return classes;
}
