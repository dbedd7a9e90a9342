import { resolveCommandDefinition, resolveObjectSchema } from '../schema/build-definition';
import type { ToolDefinition } from '../types/definition';
import type { Constructor, ObjectSchema } from '../types/schema';
import { applyDtoRules } from './dto-rules';

/**
 * The object schema of a DTO class (see `resolveObjectSchema`), with toolwright's class-validator rules applied to
 * the DTO classes it uses: the build step that turns decorator records into a definition and a validating DTO.
 */
export function buildObjectSchema(dtoClass: Constructor): ObjectSchema {
  const schema = resolveObjectSchema(dtoClass);
  applyDtoRules(schema);
  return schema;
}

/**
 * The tool definition of a `@Command` class (see `resolveCommandDefinition`), with toolwright's class-validator rules
 * applied to its parameter DTOs. Built once per class; every problem is a DefinitionError naming the class and the fix.
 */
export function buildCommandDefinition(commandClass: Constructor): ToolDefinition {
  const definition = resolveCommandDefinition(commandClass);
  applyDtoRules(definition.parameters);
  return definition;
}
