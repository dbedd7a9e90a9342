/**
 * Small, dependency-free helpers over plain JSON Schema objects. Every lowering reads and writes these
 * shapes; nothing here knows about a particular provider.
 */

/** A JSON value, as it goes on the wire. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/** A JSON Schema node (draft 2020-12 as core exports it, or a provider's dialect of it). */
export type JsonSchema = { [keyword: string]: unknown };

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** A schema node: any non-array object (schemas are JSON data, so no prototype check on this hot path). */
export function isJsonSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A deep copy of a JSON-compatible value (schemas, arguments): no shared references survive a lowering. */
export function cloneJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    for (let index = 0; index < value.length; index += 1) copy[index] = cloneJson(value[index]);
    return copy as T;
  }
  // Schemas and arguments are JSON data: every non-array object is copied as a plain object.
  const copy: Record<string, unknown> = {};
  const source = value as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    // defineProperty keeps a `__proto__` key an own property instead of swapping the prototype.
    if (key === '__proto__')
      Object.defineProperty(copy, key, {
        value: cloneJson(source[key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else copy[key] = cloneJson(source[key]);
  }
  return copy as T;
}

/** The `type` keyword as a list (`"string"` -> `["string"]`, absent -> `[]`). */
export function schemaTypes(schema: JsonSchema): string[] {
  const type = schema['type'];
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((item): item is string => typeof item === 'string');
  return [];
}

/** Whether the node is an object schema (by `type`, or by `properties` when `type` is absent). */
export function isObjectSchema(schema: JsonSchema): boolean {
  const types = schemaTypes(schema);
  if (types.includes('object')) return true;
  return types.length === 0 && isPlainObject(schema['properties']);
}

/** The declared properties, in declaration order. */
export function propertiesOf(schema: JsonSchema): Array<[string, JsonSchema]> {
  const properties = schema['properties'];
  if (!isPlainObject(properties)) return [];
  return Object.entries(properties).filter((entry): entry is [string, JsonSchema] => isJsonSchema(entry[1]));
}

export function requiredOf(schema: JsonSchema): string[] {
  const required = schema['required'];
  return Array.isArray(required) ? required.filter((item): item is string => typeof item === 'string') : [];
}

/** Whether `null` is an accepted value of this node (type array, `anyOf` variant, `enum` or `const`). */
export function acceptsNull(schema: JsonSchema): boolean {
  if (schemaTypes(schema).includes('null')) return true;
  if (Array.isArray(schema['enum']) && (schema['enum'] as unknown[]).includes(null)) return true;
  if ('const' in schema && schema['const'] === null) return true;
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const variants = schema[keyword];
    if (Array.isArray(variants) && variants.some((variant) => isJsonSchema(variant) && acceptsNull(variant)))
      return true;
  }
  return false;
}

/** Resolves a local `$ref` (`#/$defs/Name`, `#/definitions/Name`, `#`) against the root schema. */
export function resolveLocalReference(root: JsonSchema, reference: string): JsonSchema | undefined {
  if (reference === '#') return root;
  if (!reference.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const rawSegment of reference.slice(2).split('/')) {
    const segment = decodeURIComponent(rawSegment).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isPlainObject(node)) return undefined;
    node = node[segment];
  }
  return isJsonSchema(node) ? node : undefined;
}

/** The keywords whose value is one schema. */
export const SINGLE_SCHEMA_KEYWORDS = [
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'additionalItems',
  'contentSchema',
] as const;

/** The keywords whose value is a list of schemas. */
export const SCHEMA_LIST_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;

/** The keywords whose value is a map of name -> schema. */
export const SCHEMA_MAP_KEYWORDS = [
  'properties',
  '$defs',
  'definitions',
  'patternProperties',
  'dependentSchemas',
] as const;

/** The maximum nesting depth of a schema (root object = 1). */
export function schemaDepth(schema: JsonSchema): number {
  let deepest = 0;
  for (const [, property] of propertiesOf(schema)) deepest = Math.max(deepest, schemaDepth(property));
  const items = schema['items'];
  if (isJsonSchema(items)) deepest = Math.max(deepest, schemaDepth(items) - (isObjectSchema(items) ? 0 : 1));
  for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
    const variants = schema[keyword];
    if (Array.isArray(variants)) {
      for (const variant of variants) if (isJsonSchema(variant)) deepest = Math.max(deepest, schemaDepth(variant) - 1);
    }
  }
  return (isObjectSchema(schema) ? 1 : 0) + deepest;
}

/** Visits every schema node (depth first, root included) with its JSON pointer. */
export function forEachSchemaNode(
  schema: JsonSchema,
  visit: (node: JsonSchema, pointer: string) => void,
  pointer = '',
): void {
  visit(schema, pointer);
  for (const keyword of SINGLE_SCHEMA_KEYWORDS) {
    const child = schema[keyword];
    if (isJsonSchema(child)) forEachSchemaNode(child, visit, `${pointer}/${keyword}`);
  }
  for (const keyword of SCHEMA_LIST_KEYWORDS) {
    const children = schema[keyword];
    if (Array.isArray(children)) {
      children.forEach((child, index) => {
        if (isJsonSchema(child)) forEachSchemaNode(child, visit, `${pointer}/${keyword}/${index}`);
      });
    }
  }
  for (const keyword of SCHEMA_MAP_KEYWORDS) {
    const children = schema[keyword];
    if (isPlainObject(children)) {
      for (const [name, child] of Object.entries(children)) {
        if (isJsonSchema(child)) forEachSchemaNode(child, visit, `${pointer}/${keyword}/${escapePointer(name)}`);
      }
    }
  }
}

export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A readable location for messages: `/properties/options/items` -> `options[]`. */
export function describePointer(pointer: string): string {
  if (pointer === '') return '(root)';
  const parts: string[] = [];
  const segments = pointer.split('/').slice(1);
  for (let index = 0; index < segments.length; index += 1) {
    const segment = segments[index] ?? '';
    if (segment === 'properties') {
      const name = (segments[index + 1] ?? '').replace(/~1/g, '/').replace(/~0/g, '~');
      parts.push(parts.length === 0 ? name : `.${name}`);
      index += 1;
    } else if (segment === 'items') {
      parts.push('[]');
    } else if (
      (segment === 'anyOf' || segment === 'oneOf' || segment === 'allOf') &&
      /^\d+$/.test(segments[index + 1] ?? '')
    ) {
      parts.push(`${parts.length === 0 ? '' : '.'}${segment}[${segments[index + 1]}]`);
      index += 1;
    } else {
      parts.push(parts.length === 0 ? segment : `/${segment}`);
    }
  }
  return parts.join('');
}

const CHILD_KINDS: ReadonlyMap<string, 'single' | 'list' | 'map'> = new Map([
  ...SINGLE_SCHEMA_KEYWORDS.map((keyword) => [keyword, 'single'] as const),
  ...SCHEMA_LIST_KEYWORDS.map((keyword) => [keyword, 'list'] as const),
  ...SCHEMA_MAP_KEYWORDS.map((keyword) => [keyword, 'map'] as const),
]);

/**
 * Applies `transform` to every direct child schema of `schema` (in place) and returns `schema`: property
 * schemas, `items`, union variants, `$defs`, schema-valued `additionalProperties`, ... The caller recurses.
 */
export function mapChildSchemas(
  schema: JsonSchema,
  transform: (child: JsonSchema, keyword: string, key?: string) => JsonSchema,
): JsonSchema {
  for (const keyword of Object.keys(schema)) {
    const kind = CHILD_KINDS.get(keyword);
    if (kind === undefined) continue;
    const value = schema[keyword];
    if (kind === 'single') {
      if (isJsonSchema(value)) schema[keyword] = transform(value, keyword);
    } else if (kind === 'list') {
      if (Array.isArray(value))
        schema[keyword] = value.map((child, index) =>
          isJsonSchema(child) ? transform(child, keyword, String(index)) : child,
        );
    } else if (isPlainObject(value)) {
      const mapped: Record<string, unknown> = {};
      for (const name of Object.keys(value)) {
        const child = value[name];
        const next = isJsonSchema(child) ? transform(child, keyword, name) : child;
        if (name === '__proto__')
          Object.defineProperty(mapped, name, { value: next, enumerable: true, writable: true, configurable: true });
        else mapped[name] = next;
      }
      schema[keyword] = mapped;
    }
  }
  return schema;
}
