/**
 * The keyword policies of the providers whose lowering is "keep this, move that" (see keyword-policy.ts).
 * Each list cites the provider-formats reference section it comes from.
 */
import type { JsonSchema } from '../json-schema';
import { moveKeywordsToNote } from '../description-notes';
import type { KeywordPolicy } from './keyword-policy';

/** Keywords that never reach a provider as such: they are about the schema document, not the value. */
const DOCUMENT_KEYWORDS = ['$schema', '$id', '$comment'];

/**
 * Anthropic strict tool use (§3.1), also assumed for Bedrock `toolSpec.strict` (§7.1): numeric and length
 * constraints, `maxItems`, `minItems` above 1 and complex enum values are rejected with a 400; objects must
 * have `additionalProperties: false`; `oneOf` is not listed (`anyOf` is).
 */
export const ANTHROPIC_STRICT_FORMATS: ReadonlySet<string> = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'uri',
  'ipv4',
  'ipv6',
  'uuid',
]);

export const ANTHROPIC_STRICT_MOVED_KEYWORDS: ReadonlySet<string> = new Set([
  ...DOCUMENT_KEYWORDS.slice(1),
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'patternProperties',
  'propertyNames',
  'dependentRequired',
  'dependentSchemas',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'minContains',
  'maxContains',
  'prefixItems',
  'unevaluatedItems',
  'unevaluatedProperties',
]);

export const ANTHROPIC_STRICT_POLICY: KeywordPolicy = {
  move: ANTHROPIC_STRICT_MOVED_KEYWORDS,
  formats: ANTHROPIC_STRICT_FORMATS,
  oneOfToAnyOf: true,
  additionalProperties: 'close',
  adjust: (node: JsonSchema) => {
    if (typeof node['minItems'] === 'number' && node['minItems'] > 1) moveKeywordsToNote(node, ['minItems']);
    const values = node['enum'];
    if (Array.isArray(values) && values.some((value) => typeof value === 'object' && value !== null)) {
      moveKeywordsToNote(node, ['enum']);
    }
  },
};

/**
 * Cohere v2 (§8.1): the documented keywords for JSON, strict and non-strict tools. `minimum`, `maximum`,
 * `minItems`, `maxItems`, `minLength`, `maxLength`, `allOf`, `oneOf`, `not` are unsupported, the regex tokens
 * `^`, `$`, `?=`, `?!` are unsupported in `pattern`, and `default` is not listed. `uniqueItems` only without strict.
 */
export const COHERE_FORMATS: ReadonlySet<string> = new Set(['date-time', 'uuid', 'date', 'time']);

const COHERE_KEPT = [
  'type',
  'description',
  'title',
  'properties',
  'required',
  'items',
  'enum',
  'const',
  'pattern',
  'format',
  '$ref',
  '$defs',
  'definitions',
  'anyOf',
  'additionalProperties',
];

export function coherePolicy(strict: boolean): KeywordPolicy {
  return {
    keep: new Set(strict ? COHERE_KEPT : [...COHERE_KEPT, 'uniqueItems']),
    formats: COHERE_FORMATS,
    oneOfToAnyOf: true,
    adjust: (node: JsonSchema) => {
      const pattern = node['pattern'];
      if (typeof pattern === 'string' && /\^|\$|\(\?=|\(\?!/.test(pattern)) moveKeywordsToNote(node, ['pattern']);
    },
  };
}

/**
 * Ollama `/api/chat` (§6.1): the server decodes tools into Go structs and keeps only `type`, `description`,
 * `enum`, `items`, `properties`, `required`, `anyOf` and `$defs`; everything else is silently dropped, so it is
 * folded into the description. References are inlined first (`$ref` itself is not kept).
 */
export const OLLAMA_KEPT_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'description',
  'enum',
  'items',
  'properties',
  'required',
  'anyOf',
  '$defs',
]);

export const OLLAMA_POLICY: KeywordPolicy = {
  keep: OLLAMA_KEPT_KEYWORDS,
  oneOfToAnyOf: true,
  additionalProperties: 'drop-closed',
};

/** What every non-verbatim lowering removes first. */
export function withoutDocumentKeywords(schema: JsonSchema): JsonSchema {
  const copy = { ...schema };
  for (const keyword of DOCUMENT_KEYWORDS) delete copy[keyword];
  return copy;
}
