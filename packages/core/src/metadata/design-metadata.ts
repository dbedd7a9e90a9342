import { DESIGN_PARAMTYPES, DESIGN_TYPE } from './constants';
import { reflectMetadata } from './reflect-api';

/**
 * TypeScript's `design:type` of a property (`String`, `Number`, `Array`, a class, ...), or `undefined` when the
 * code was compiled without `emitDecoratorMetadata` (esbuild, tsx, swc without the option).
 */
export function getDesignType(prototype: object, propertyName: string): unknown {
  return reflectMetadata.getMetadata(DESIGN_TYPE, prototype, propertyName);
}

/**
 * TypeScript's `design:paramtypes` of a method, or `undefined`. TypeScript emits it only for a method (or one of its
 * parameters) that carries a decorator.
 */
export function getDesignParamTypes(prototype: object, methodName: string): readonly unknown[] | undefined {
  return reflectMetadata.getMetadata(DESIGN_PARAMTYPES, prototype, methodName) as readonly unknown[] | undefined;
}
