import type { ObjectSchema, ParamSchema, PropertyDefinition } from '@toolwright/core';

/** Small builders for hand-written IR in tests. */
export function prop(name: string, schema: ParamSchema, extra: Partial<PropertyDefinition> = {}): PropertyDefinition {
  return { name, schema, required: true, aliases: [], ...extra };
}

export function object(properties: PropertyDefinition[], extra: Partial<ObjectSchema> = {}): ObjectSchema {
  return { kind: 'object', properties, additionalProperties: false, ...extra };
}
