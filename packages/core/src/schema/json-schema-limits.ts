/** The caps of a JSON Schema import and what the import takes. */

export interface JsonSchemaLimits {
  /** Deepest nesting of schemas (properties, items, combinators and expanded $refs), and of default/example values. */
  readonly maxDepth: number;
  /** Most nodes: schemas (each $ref expansion counted again), enum values, required names, default and example values. */
  readonly maxNodes: number;
  /** Longest `pattern`, in characters. */
  readonly maxPatternLength: number;
  /** Longest chain of $ref expansions nested inside each other. */
  readonly maxRefDepth: number;
  /** Untrusted schemas: longest tool or parameter `description` and `title`, in characters; longer ones are clipped. */
  readonly maxDescriptionLength: number;
  /** Untrusted schemas: most `examples` kept per schema (the first ones). */
  readonly maxExamples: number;
  /** Untrusted schemas: largest `default` or single example, as JSON text in characters; a larger one is dropped. */
  readonly maxAnnotationValueLength: number;
}

export const DEFAULT_JSON_SCHEMA_LIMITS: JsonSchemaLimits = Object.freeze({
  maxDepth: 32,
  maxNodes: 10_000,
  maxPatternLength: 1_000,
  maxRefDepth: 16,
  maxDescriptionLength: 4_096,
  maxExamples: 5,
  maxAnnotationValueLength: 1_024,
});

export interface JsonSchemaImportOptions {
  /** The tool (or schema) name used in error messages. */
  readonly target?: string;
  /** The schema comes from outside the codebase (an MCP server): also refuse ReDoS-prone patterns. */
  readonly untrusted?: boolean;
  readonly limits?: Partial<JsonSchemaLimits>;
  /** Extra keywords to ignore as annotations (keys starting with `x-` always are). */
  readonly annotationKeywords?: readonly string[];
  /**
   * What an object without `additionalProperties` allows besides its declared properties. `'convention'` (default):
   * the arguments object (the root) takes nothing else when it declares `properties` (the tool-call convention: an
   * invented parameter is dropped and recorded); nested objects, and objects that declare no properties, take anything,
   * as JSON Schema reads them (BFCL's nested dicts, e.g. `sendHttpRequest.data`, carry undeclared keys).
   * `'allow'`: the root too takes anything.
   */
  readonly additionalPropertiesWhenAbsent?: 'convention' | 'allow';
}

export function resolveLimits(limits: Partial<JsonSchemaLimits> | undefined): JsonSchemaLimits {
  return { ...DEFAULT_JSON_SCHEMA_LIMITS, ...limits };
}
