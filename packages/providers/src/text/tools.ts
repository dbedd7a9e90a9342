/**
 * The tools a text is read against, from any of the three sources `parseTextToolCalls` takes: JSON-Schema tool
 * definitions (`{ name, description, parameters }[]`), a provider tool set (its codec decodes the names the model
 * saw), or a registry / `ToolDefinition[]` (names matched as written and in the portable codec's form, the form every
 * provider adapter sends `math.factorial` as). Built once per source object and cached.
 */
import { DefinitionError, type ToolDefinition } from '@toolwright/core';
import { canonicalParameters, type ToolRegistryLike } from '../shared/definitions';
import { isPlainObject, type JsonSchema } from '../shared/json-schema';
import { ToolNameCodec } from '../shared/name-codec';
import { PORTABLE_NAME_PROFILE } from '../shared/name-profiles';
import type { ToolSetContext } from '../shared/tool-set';

/** A tool as JSON Schema (an OpenAI-style function, an MCP `tools/list` entry with `inputSchema`). */
export interface JsonSchemaTool {
  readonly name: string;
  readonly description?: string;
  readonly parameters?: Readonly<Record<string, unknown>>;
  readonly inputSchema?: Readonly<Record<string, unknown>>;
}

/** A provider tool set as `createToolSet` / `toTools` return it. */
export interface TextToolSet extends ToolSetContext {
  readonly definitions: readonly ToolDefinition[];
}

/** What `parseTextToolCalls` reads names and parameter types from. */
export type TextToolSource = readonly (JsonSchemaTool | ToolDefinition)[] | TextToolSet | ToolRegistryLike;

/** One known tool: its registry name and the parameters schema that types raw XML-style values. */
export interface KnownTool {
  readonly name: string;
  readonly schema: () => JsonSchema | undefined;
}

export interface ToolIndex {
  /** The tool a name written by the model refers to, or undefined. */
  lookup(writtenName: string): KnownTool | undefined;
  /** The registry names, for messages. */
  readonly names: readonly string[];
}

const cache = new WeakMap<object, ToolIndex>();

function isToolSet(source: unknown): source is TextToolSet {
  return (
    typeof source === 'object' &&
    source !== null &&
    typeof (source as { canonicalSchema?: unknown }).canonicalSchema === 'function' &&
    (source as { codec?: unknown }).codec instanceof ToolNameCodec &&
    Array.isArray((source as { definitions?: unknown }).definitions)
  );
}

function isToolDefinition(tool: JsonSchemaTool | ToolDefinition): tool is ToolDefinition {
  return 'source' in tool && 'options' in tool && isPlainObject(tool.parameters);
}

function once<T>(compute: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = compute();
      done = true;
    }
    return value;
  };
}

function indexOf(entries: ReadonlyMap<string, KnownTool>, names: readonly string[]): ToolIndex {
  return { lookup: (written) => entries.get(written), names };
}

function fromToolSet(toolSet: TextToolSet): ToolIndex {
  const entries = new Map<string, KnownTool>();
  for (const definition of toolSet.definitions) {
    const known: KnownTool = { name: definition.name, schema: once(() => toolSet.canonicalSchema(definition.name)) };
    entries.set(toolSet.codec.encode(definition.name), known);
  }
  // The registry name as written, when no encoded name of the set already means something else.
  for (const definition of toolSet.definitions)
    if (!entries.has(definition.name))
      entries.set(definition.name, entries.get(toolSet.codec.encode(definition.name))!);
  return indexOf(
    entries,
    toolSet.definitions.map((definition) => definition.name),
  );
}

function fromList(tools: readonly (JsonSchemaTool | ToolDefinition)[]): ToolIndex {
  const entries = new Map<string, KnownTool>();
  for (const tool of tools) {
    if (!isPlainObject(tool) || typeof tool.name !== 'string' || tool.name === '')
      throw new DefinitionError('every tool given to parseTextToolCalls needs a name', {
        target: 'parseTextToolCalls',
        fix: 'pass JSON-Schema tools ({ name, description, parameters }), a provider tool set or a registry',
      });
    const schema = isToolDefinition(tool)
      ? once(() => canonicalParameters(tool))
      : once(() => {
          const parameters = tool.parameters ?? tool.inputSchema;
          return isPlainObject(parameters) ? parameters : undefined;
        });
    entries.set(tool.name, { name: tool.name, schema });
  }
  const names = [...entries.keys()];
  const codec = ToolNameCodec.create(names, PORTABLE_NAME_PROFILE);
  for (const name of names) {
    const encoded = codec.encode(name);
    if (!entries.has(encoded)) entries.set(encoded, entries.get(name)!);
  }
  return indexOf(entries, names);
}

function isRegistryLike(source: unknown): source is ToolRegistryLike {
  return typeof source === 'object' && source !== null && typeof (source as ToolRegistryLike).list === 'function';
}

/** The index of a source (cached per source object; a registry is read once per parse, it may grow). */
export function toolIndex(source: TextToolSource): ToolIndex {
  if (isRegistryLike(source)) return fromList(source.list());
  const cached = cache.get(source);
  if (cached) return cached;
  let index: ToolIndex;
  if (isToolSet(source)) index = fromToolSet(source);
  else if (Array.isArray(source)) index = fromList(source as readonly (JsonSchemaTool | ToolDefinition)[]);
  else
    throw new DefinitionError('parseTextToolCalls needs the tools the model was offered', {
      target: 'parseTextToolCalls',
      fix: 'pass { tools }: JSON-Schema tools ({ name, description, parameters }[]), a provider tool set or a registry',
    });
  cache.set(source, index);
  return index;
}
