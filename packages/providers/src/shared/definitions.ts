import { DefinitionError, toJsonSchema, type ToolDefinition } from '@toolwright/core';
import type { JsonSchema } from './json-schema';

/** Anything with the registry's `list()` (a `ToolRegistry`, or a view of one). */
export interface ToolRegistryLike {
  list(): readonly ToolDefinition[];
}

/** What `toTools` and `lint` take: a registry, or the definitions themselves. */
export type ToolSource = ToolRegistryLike | readonly ToolDefinition[];

function isRegistryLike(source: unknown): source is ToolRegistryLike {
  return typeof source === 'object' && source !== null && typeof (source as { list?: unknown }).list === 'function';
}

/** The definitions of a source, in registration order. */
export function resolveDefinitions(source: ToolSource): readonly ToolDefinition[] {
  if (Array.isArray(source)) return source as readonly ToolDefinition[];
  if (isRegistryLike(source)) return source.list();
  throw new DefinitionError('expected a ToolRegistry (anything with list()) or an array of ToolDefinition', {
    target: 'toTools',
    fix: 'pass registry or registry.list()',
  });
}

/**
 * A tool's parameters as core exports them (draft 2020-12, context fields absent, additionalProperties explicit).
 * The exporter returns fresh objects, so the lowering may change them.
 */
export function canonicalParameters(definition: ToolDefinition): JsonSchema {
  return toJsonSchema(definition) as JsonSchema;
}
