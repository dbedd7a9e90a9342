import { isUuidDefault } from '../validator-js';
import { invalid, valid, type LabelledValue } from '../outcome';

/**
 * The `uuid` format: RFC 9562's text form, version 1 to 8 with the RFC variant, or the nil and max UUIDs: the one
 * definition for `format: uuid` and for `@IsUUID()` (validator.js's `isUUID` with version `all`, whose exact form
 * `isUuidDefault` is).
 */
export const isUuid = isUuidDefault;

export function uuidEdgeCases(): LabelledValue[] {
  return [
    valid('123e4567-e89b-42d3-a456-426614174000', 'a version 4 UUID'),
    valid('00000000-0000-0000-0000-000000000000', 'the nil UUID'),
    valid('FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF', 'the max UUID in capitals'),
    invalid('123e4567-e89b-02d3-a456-426614174000', 'version 0'),
    invalid('123e4567-e89b-42d3-c456-426614174000', 'a non-RFC variant'),
    invalid('123e4567e89b42d3a456426614174000', 'no hyphens'),
    invalid('{123e4567-e89b-42d3-a456-426614174000}', 'braces'),
    invalid('123e4567-e89b-42d3-a456-42661417400g', 'a non-hex digit'),
  ];
}
