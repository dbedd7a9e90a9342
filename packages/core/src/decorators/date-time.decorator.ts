import type { DateParamOptions } from '../types/param-options';
import { recordParam } from './record-param';

/** An ISO-8601 date-time with a UTC offset (`2026-11-21T09:00:00+01:00`). A property typed `Date` receives a `Date`. */
export function DateTime(options: DateParamOptions = {}): PropertyDecorator {
  return (prototype, propertyKey) =>
    recordParam('DateTime', prototype, propertyKey, (target, propertyName) => ({
      decorator: 'DateTime',
      target,
      propertyName,
      options: { ...options },
    }));
}
