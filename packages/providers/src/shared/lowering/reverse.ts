/**
 * Undoing the lowerings, for `fromProviderTool`: description notes move back into keywords, strict-mode nullable
 * optionals become optional again, and object nodes whose `additionalProperties` the provider cannot carry get
 * the exporter's default back.
 */
import {
  OPTIONAL_NULLABLE_MARKER,
  OPTIONAL_NULL_MARKER,
  addToNote,
  joinDescription,
  setDescription,
  splitNote,
  takeMarker,
} from '../description-notes';
import {
  cloneJson,
  isJsonSchema,
  isObjectSchema,
  mapChildSchemas,
  propertiesOf,
  requiredOf,
  schemaTypes,
  type JsonSchema,
} from '../json-schema';

export interface UndoLoweringOptions {
  /** The tool was lowered for OpenAI strict mode (undo the nullable optionals first). */
  readonly strict?: boolean;
  /** The provider cannot carry `additionalProperties` (give objects the exporter's `false` back). */
  readonly closeObjects?: boolean;
  /** The schema is already a copy the caller owns (skip the defensive copy). */
  readonly inPlace?: boolean;
}

/** Every reverse step a provider needs, on one copy of the schema. */
export function undoLowering(schema: JsonSchema, options: UndoLoweringOptions = {}): JsonSchema {
  let node = options.inPlace ? schema : cloneJson(schema);
  if (options.strict) node = undoStrictInPlace(node);
  node = restoreNotesInPlace(node);
  if (options.closeObjects) node = closeInPlace(node);
  return node;
}

/** Moves every description note back into keywords (the note's values win over what the node has). */
export function restoreNotes(schema: JsonSchema): JsonSchema {
  return restoreNotesInPlace(cloneJson(schema));
}

function restoreNotesInPlace(node: JsonSchema): JsonSchema {
  const { text, note } = splitNote(typeof node['description'] === 'string' ? node['description'] : undefined);
  const keywords = Object.keys(note);
  if (keywords.length > 0) setDescription(node, text);
  mapChildSchemas(node, restoreNotesInPlace);
  for (const keyword of keywords) node[keyword] = note[keyword];
  return node;
}

/**
 * Undoes OpenAI strict mode's "all required, optional ones nullable": a property with the optional marker
 * leaves `required`, and loses the `null` the lowering added (unless it accepted null before).
 */
export function undoStrictOptionals(schema: JsonSchema): JsonSchema {
  return undoStrictInPlace(cloneJson(schema));
}

function undoStrictInPlace(schema: JsonSchema): JsonSchema {
  const undo = (node: JsonSchema): JsonSchema => {
    mapChildSchemas(node, undo);
    if (!isObjectSchema(node)) return node;
    const optional = new Set<string>();
    const properties: Record<string, unknown> = {};
    for (const [name, property] of propertiesOf(node)) {
      const { text, note } = splitNote(
        typeof property['description'] === 'string' ? property['description'] : undefined,
      );
      const addedNull = takeMarker(text, OPTIONAL_NULL_MARKER);
      const keptNull = addedNull.found
        ? { text: addedNull.text, found: false }
        : takeMarker(text, OPTIONAL_NULLABLE_MARKER);
      if (!addedNull.found && !keptNull.found) {
        properties[name] = property;
        continue;
      }
      optional.add(name);
      let restored: JsonSchema = { ...property };
      setDescription(restored, addedNull.found ? addedNull.text : keptNull.text);
      if (addedNull.found) restored = withoutNull(restored);
      if (Object.keys(note).length > 0) addToNote(restored, note);
      properties[name] = restored;
    }
    if (optional.size === 0) return node;
    node['properties'] = properties;
    const required = requiredOf(node).filter((name) => !optional.has(name));
    if (required.length > 0) node['required'] = required;
    else delete node['required'];
    return node;
  };
  return undo(schema);
}

function withoutNull(schema: JsonSchema): JsonSchema {
  const types = schemaTypes(schema);
  if (types.includes('null') && Array.isArray(schema['type'])) {
    const remaining = types.filter((type) => type !== 'null');
    schema['type'] = remaining.length === 1 ? remaining[0] : remaining;
    if (Array.isArray(schema['enum'])) schema['enum'] = (schema['enum'] as unknown[]).filter((value) => value !== null);
    return schema;
  }
  const variants = schema['anyOf'];
  if (Array.isArray(variants)) {
    const remaining = variants.filter(
      (variant) => !(isJsonSchema(variant) && variant['type'] === 'null' && Object.keys(variant).length === 1),
    );
    const others = Object.keys(schema).filter((keyword) => keyword !== 'anyOf' && keyword !== 'description');
    const only = remaining[0];
    if (remaining.length === 1 && others.length === 0 && isJsonSchema(only)) {
      // The lowering wrapped a `$ref`/`const`/untyped schema as anyOf [it, null]: unwrap it.
      const description = typeof schema['description'] === 'string' ? schema['description'] : undefined;
      const unwrapped: JsonSchema = { ...only };
      if (description !== undefined) unwrapped['description'] = joinDescription(description);
      return unwrapped;
    }
    schema['anyOf'] = remaining;
  }
  return schema;
}

/**
 * Gives every object node without `additionalProperties` an explicit `false`: for providers whose lowering drops
 * the keyword (Gemini `parameters`, Ollama), where `false` is what the exporter wrote (other values travel in the
 * note and are restored by `restoreNotes`).
 */
export function closeUnspecifiedObjects(schema: JsonSchema): JsonSchema {
  return closeInPlace(cloneJson(schema));
}

function closeInPlace(node: JsonSchema): JsonSchema {
  mapChildSchemas(node, closeInPlace);
  if (isObjectSchema(node) && node['additionalProperties'] === undefined) node['additionalProperties'] = false;
  return node;
}
