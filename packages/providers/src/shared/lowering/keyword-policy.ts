/**
 * The generic lowering: walk every schema node, keep what the provider takes, and move the rest into the node's
 * description note. Providers differ only in their policy (an allow-list for providers that document what they
 * keep, a deny-list for providers that document what they reject).
 */
import { addToNote, moveKeywordsToNote } from '../description-notes';
import {
  cloneJson,
  isJsonSchema,
  isObjectSchema,
  isPlainObject,
  mapChildSchemas,
  resolveLocalReference,
  schemaTypes,
  type JsonSchema,
} from '../json-schema';

export interface KeywordPolicy {
  /** Keywords kept; every other keyword moves into the note. Absent: everything not in `move` is kept. */
  readonly keep?: ReadonlySet<string>;
  /** Keywords that move into the note (used with or without `keep`). */
  readonly move?: ReadonlySet<string>;
  /** String formats kept; other formats move into the note. Absent: every format is kept (if `format` is kept). */
  readonly formats?: ReadonlySet<string>;
  /** Rename `oneOf` to `anyOf` (when there is no `anyOf` already). */
  readonly oneOfToAnyOf?: boolean;
  /**
   * `additionalProperties` on objects: `close` sets it to `false` (moving another value into the note),
   * `drop-closed` deletes a `false` silently (the provider cannot say it, and the model only sees the declared
   * properties anyway) and lets the keep/move rules handle other values; absent: the keep/move rules decide.
   */
  readonly additionalProperties?: 'close' | 'drop-closed';
  /** A provider-specific adjustment run on each node before the keep/move rules. */
  readonly adjust?: (node: JsonSchema) => void;
}

export function lowerByPolicy(schema: JsonSchema, policy: KeywordPolicy): JsonSchema {
  return lowerNode(cloneJson(schema), policy);
}

function lowerNode(node: JsonSchema, policy: KeywordPolicy): JsonSchema {
  if (policy.oneOfToAnyOf && Array.isArray(node['oneOf']) && node['anyOf'] === undefined) {
    node['anyOf'] = node['oneOf'];
    delete node['oneOf'];
  }
  policy.adjust?.(node);
  if (isObjectSchema(node)) {
    if (policy.additionalProperties === 'close' && node['additionalProperties'] !== false) {
      if (node['additionalProperties'] !== undefined) moveKeywordsToNote(node, ['additionalProperties']);
      node['additionalProperties'] = false;
    } else if (policy.additionalProperties === 'drop-closed' && node['additionalProperties'] === false) {
      delete node['additionalProperties'];
    }
  }
  const moved = Object.keys(node).filter(
    (keyword) =>
      keyword !== 'description' &&
      (policy.move?.has(keyword) || (policy.keep !== undefined && !policy.keep.has(keyword))),
  );
  moveKeywordsToNote(node, moved);
  if (policy.formats && typeof node['format'] === 'string' && !policy.formats.has(node['format'])) {
    moveKeywordsToNote(node, ['format']);
  }
  return mapChildSchemas(node, (child) => lowerNode(child, policy));
}

/**
 * Replaces every local `$ref` by a copy of its target (sibling keywords of the `$ref` win) and removes
 * `$defs`/`definitions`. A recursive reference cannot be inlined: it becomes an untyped object whose note keeps the
 * `$ref`, and the root note keeps the definitions, so the reverse adapter can restore both.
 */
export function inlineLocalReferences(schema: JsonSchema): JsonSchema {
  const root = cloneJson(schema);
  let recursive = false;
  const inline = (node: JsonSchema, stack: readonly string[]): JsonSchema => {
    const reference = node['$ref'];
    if (typeof reference === 'string') {
      const target = resolveLocalReference(root, reference);
      if (target && !stack.includes(reference)) {
        const { $ref: _reference, ...siblings } = node;
        const merged: JsonSchema = { ...cloneJson(target), ...siblings };
        delete merged['$defs'];
        delete merged['definitions'];
        return inline(merged, [...stack, reference]);
      }
      if (target) {
        recursive = true;
        const { $ref: _reference, ...siblings } = node;
        const placeholder: JsonSchema = { type: schemaTypes(target)[0] ?? 'object', ...siblings };
        addToNote(placeholder, { $ref: reference });
        return placeholder;
      }
      return node;
    }
    return mapChildSchemas(node, (child, keyword) =>
      keyword === '$defs' || keyword === 'definitions' ? child : inline(child, stack),
    );
  };
  const definitions = { $defs: root['$defs'], definitions: root['definitions'] };
  const result = inline(root, []);
  delete result['$defs'];
  delete result['definitions'];
  if (recursive) {
    const kept: Record<string, unknown> = {};
    if (isPlainObject(definitions.$defs)) kept['$defs'] = definitions.$defs;
    if (isPlainObject(definitions.definitions)) kept['definitions'] = definitions.definitions;
    addToNote(result, kept);
  }
  return result;
}

/** Whether any node of the schema has a local `$ref` that leads back to itself. */
export function hasRecursiveReference(schema: JsonSchema): boolean {
  const visit = (node: unknown, stack: readonly string[]): boolean => {
    if (Array.isArray(node)) return node.some((item) => visit(item, stack));
    if (!isPlainObject(node)) return false;
    const reference = node['$ref'];
    if (typeof reference === 'string') {
      if (stack.includes(reference)) return true;
      const target = resolveLocalReference(schema, reference);
      if (target && visit(target, [...stack, reference])) return true;
    }
    return Object.entries(node).some(
      ([keyword, value]) =>
        keyword !== '$defs' &&
        keyword !== 'definitions' &&
        keyword !== '$ref' &&
        (isJsonSchema(value) || Array.isArray(value)) &&
        visit(value, stack),
    );
  };
  return visit(schema, []);
}
