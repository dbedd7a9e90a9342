import type { DateParamOptions } from '../types/param-options';
import { recordParam } from './record-param';

/** A calendar date, `YYYY-MM-DD`. A property typed `Date` receives a `Date` at UTC midnight. */
export function DateOnly(options: DateParamOptions = {}): PropertyDecorator {
  return (prototype, propertyKey) =>
    recordParam('DateOnly', prototype, propertyKey, (target, propertyName) => ({
      decorator: 'DateOnly',
      target,
      propertyName,
      options: { ...options },
    }));
}
