import { DESIGN_PARAMTYPES, DESIGN_TYPE, TSYRINGE_INJECTION_TOKENS } from './constants';
import { reflectMetadata } from './reflect-api';

/**
 * `Reflect.getMetadata` (the key on the object or its prototype chain), asking the object itself first: TypeScript
 * emits a property's or method's metadata on the class that declares it, so the own lookup nearly always answers, at
 * about half the cost of the polyfill's `getMetadata` (which asks whether the object has the key, then reads it, then
 * walks up). When the own lookup gives `undefined`, `getMetadata` answers exactly as it would have (it asks the object
 * itself first too), so the result is the same in every case.
 */
function ownFirstMetadata(key: string, target: object, propertyKey?: string): unknown {
  const own = reflectMetadata.getOwnMetadata(key, target, propertyKey);
  return own !== undefined ? own : reflectMetadata.getMetadata(key, target, propertyKey);
}

/**
 * TypeScript's `design:type` of a property (`String`, `Number`, `Array`, a class, ...), or `undefined` when the
 * code was compiled without `emitDecoratorMetadata` (esbuild, tsx, swc without the option).
 */
export function getDesignType(prototype: object, propertyName: string): unknown {
  return ownFirstMetadata(DESIGN_TYPE, prototype, propertyName);
}

/**
 * TypeScript's `design:paramtypes` of a method, or `undefined`. TypeScript emits it only for a method (or one of its
 * parameters) that carries a decorator.
 */
export function getDesignParamTypes(prototype: object, methodName: string): readonly unknown[] | undefined {
  return ownFirstMetadata(DESIGN_PARAMTYPES, prototype, methodName) as readonly unknown[] | undefined;
}

/** TypeScript's `design:paramtypes` of a class's constructor, or `undefined` (no class decorator, or no emitDecoratorMetadata). */
export function getConstructorParamTypes(target: Function): readonly unknown[] | undefined {
  return ownFirstMetadata(DESIGN_PARAMTYPES, target) as readonly unknown[] | undefined;
}

/** tsyringe's `@inject(token)` entries on a class's own constructor, by parameter index. */
export function getOwnInjectionTokens(target: Function): Readonly<Record<string, unknown>> {
  return (
    (reflectMetadata.getOwnMetadata(TSYRINGE_INJECTION_TOKENS, target) as Record<string, unknown> | undefined) ?? {}
  );
}
