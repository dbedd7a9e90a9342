import {
  definitionFromJsonSchema,
  type JsonSchemaToolOptions,
  type ToolAnnotations,
  type ToolDefinition,
} from '@toolwright/core';
import type { JsonSchema } from './json-schema';
import { withoutCrossFieldSentences } from './lowering/cross-field';
import type { ToolNameCodec } from './name-codec';

export interface ImportOptions {
  /** The codec of the tool set the tool came from: the provider name is decoded back to the registry name. */
  readonly codec?: ToolNameCodec;
  /** The registry name to use (wins over the codec). */
  readonly name?: string;
  /** Options for core's JSON Schema import (limits, `untrusted`, tool options such as `timeoutMs`). */
  readonly jsonSchema?: JsonSchemaToolOptions;
}

/** What some providers carry besides name, description and schema (MCP). */
export interface ImportExtras {
  readonly title?: string;
  readonly annotations?: ToolAnnotations;
}

/** A provider tool, already un-lowered to JSON Schema, as an IR definition (through core's JSON Schema import). */
export function importToolDefinition(
  providerName: string,
  description: string | null | undefined,
  parameters: JsonSchema,
  options: ImportOptions = {},
  extras: ImportExtras = {},
): ToolDefinition {
  const name = options.name ?? (options.codec ? options.codec.decode(providerName) : providerName);
  const definition = declare(name, description, parameters, options, extras);
  // The lowering said the cross-field rules in words at the end of the description: take them off again.
  if (typeof description === 'string' && (definition.parameters.crossFieldRules?.length ?? 0) > 0) {
    const original = withoutCrossFieldSentences(definition, description);
    if (original !== description) return declare(name, original, parameters, options, extras);
  }
  return definition;
}

function declare(
  name: string,
  description: string | null | undefined,
  parameters: JsonSchema,
  options: ImportOptions,
  extras: ImportExtras,
): ToolDefinition {
  return definitionFromJsonSchema(
    {
      name,
      ...(description !== undefined && description !== null ? { description } : {}),
      parameters,
      ...(extras.title !== undefined ? { title: extras.title } : {}),
      ...(extras.annotations !== undefined ? { annotations: extras.annotations } : {}),
    },
    options.jsonSchema,
  );
}
