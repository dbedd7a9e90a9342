import type { ContextKey } from '../types/schema';
import type { FromContextOptions } from '../types/param-options';
import { recordParam } from './record-param';

/**
 * A property filled only from the trusted execution context (`session_id`, `job_id`, `flow_step_id`, `source_url`,
 * `image_url`, `handler_config`, `persona`): absent from every schema a model sees; a model-sent value is dropped.
 */
export function FromContext(key: ContextKey, options: FromContextOptions = {}): PropertyDecorator {
  return (prototype, propertyKey) =>
    recordParam('FromContext', prototype, propertyKey, (target, propertyName) => ({
      decorator: 'FromContext',
      target,
      propertyName,
      key,
      options: { ...options },
    }));
}
