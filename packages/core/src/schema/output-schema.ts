import { definitionMessages } from './definition-messages';
import { fromJsonSchema } from './json-schema-import';
import type { JsonSchemaImportOptions } from './json-schema-limits';
import type { ObjectSchema } from '../types/schema';

/**
 * A tool's output schema (what its handler returns) in the IR, from either source: a `@Command({ returns })` class
 * (decorated like a parameter DTO) or an `outputSchema` JSON Schema. Either must describe an object (MCP's
 * `structuredContent` is one) and holds no trusted context field.
 */

/**
 * The output schema of a JSON Schema (`outputSchema` of a declaration or of the options). An object without
 * `additionalProperties` takes other keys, as JSON Schema reads it (a server's result may carry more than it lists).
 */
export function outputFromJsonSchema(
  target: string,
  schema: unknown,
  options: Omit<JsonSchemaImportOptions, 'target' | 'additionalPropertiesWhenAbsent'> = {},
): ObjectSchema {
  return checkedOutput(
    target,
    'outputSchema',
    fromJsonSchema(schema, { ...options, target: `${target} outputSchema`, additionalPropertiesWhenAbsent: 'allow' }),
  );
}

/** An output schema as the IR holds it: one that no trusted context field fills (`option`: where it was given). */
export function checkedOutput(target: string, option: string, schema: ObjectSchema): ObjectSchema {
  const filled = schema.properties.find((property) => property.context !== undefined || property.extract !== undefined);
  if (filled !== undefined) {
    throw definitionMessages.toolOptionProblem(
      target,
      option,
      `the output schema's property "${filled.name}" is filled from the execution context, which a result cannot be.`,
      'declare results with @ToolParam, @ArrayOf, @DateTime, ... only (no @FromContext or extract).',
    );
  }
  return schema;
}
