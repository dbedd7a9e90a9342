import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import type { Constructor } from '@toolwright/core';

/** The options a developer validating a DTO by hand would use. */
export const PLAIN_VALIDATION_OPTIONS = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
} as const;

/** Plain class-transformer + class-validator, as a developer would run them: failing paths and their constraint names. */
export function plainValidation(dto: Constructor, plain: Record<string, unknown>): Record<string, string[]> {
  const failures: Record<string, string[]> = {};
  const walk = (errors: readonly ValidationError[], prefix: string) => {
    for (const error of errors) {
      const path = prefix === '' ? error.property : `${prefix}.${error.property}`;
      if (error.constraints) failures[path] = Object.keys(error.constraints);
      walk(error.children ?? [], path);
    }
  };
  walk(validateSync(plainToInstance(dto, plain) as object, PLAIN_VALIDATION_OPTIONS), '');
  return failures;
}
