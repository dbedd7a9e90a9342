import 'reflect-metadata';
import { lowerByPolicy, inlineLocalReferences, hasRecursiveReference } from '../../src/shared/lowering/keyword-policy';
import { ANTHROPIC_STRICT_POLICY, OLLAMA_POLICY, coherePolicy } from '../../src/shared/lowering/policies';
import { closeUnspecifiedObjects, restoreNotes } from '../../src/shared/lowering/reverse';
import { addToNote, moveKeywordsToNote, splitNote } from '../../src/shared/description-notes';
import type { JsonSchema } from '../../src/shared/json-schema';
import { CANONICAL_SCHEMA } from '../support/canonical';

const canonical = (): JsonSchema => JSON.parse(JSON.stringify(CANONICAL_SCHEMA)) as JsonSchema;
const property = (schema: JsonSchema, name: string): JsonSchema =>
  (schema['properties'] as Record<string, JsonSchema>)[name] ?? {};

describe('description notes', () => {
  it('moves keywords into one JSON note and reads them back', () => {
    const schema: JsonSchema = { type: 'integer', description: 'Count (1-50).', minimum: 1, maximum: 50 };
    expect(moveKeywordsToNote(schema, ['minimum', 'maximum', 'absent'])).toEqual(['minimum', 'maximum']);
    expect(schema).toEqual({ type: 'integer', description: 'Count (1-50). (JSON Schema: {"minimum":1,"maximum":50})' });
    addToNote(schema, { default: 10 });
    expect(splitNote(schema['description'] as string)).toEqual({
      text: 'Count (1-50).',
      note: { minimum: 1, maximum: 50, default: 10 },
    });
  });

  it('ignores text that only looks like a note', () => {
    expect(splitNote('Use (JSON Schema: {not json})').note).toEqual({});
    expect(splitNote('Plain text.')).toEqual({ text: 'Plain text.', note: {} });
  });
});

describe('keyword policies', () => {
  it('Ollama keeps only what the server decodes and folds the rest into descriptions', () => {
    const lowered = lowerByPolicy(canonical(), OLLAMA_POLICY);
    expect(lowered).not.toHaveProperty('additionalProperties');
    expect(property(lowered, 'max_results')).toEqual({
      type: 'integer',
      description:
        'Maximum number of events to return (1-50). Defaults to 10. (JSON Schema: {"minimum":1,"maximum":50,"default":10})',
    });
    expect(property(lowered, 'resolved_datetimes')['items']).toEqual({
      type: 'string',
      description: '(JSON Schema: {"format":"date-time"})',
    });
    expect(property(lowered, 'calendar')).toEqual(CANONICAL_SCHEMA.properties.calendar);
    expect(closeUnspecifiedObjects(restoreNotes(lowered))).toEqual(canonical());
  });

  it('Cohere moves minimum, maximum and default, and patterns with anchors', () => {
    const schema = canonical();
    (schema['properties'] as Record<string, JsonSchema>)['code'] = {
      type: 'string',
      pattern: '^[A-Z]{3}$',
      minLength: 3,
    };
    (schema['properties'] as Record<string, JsonSchema>)['tags'] = {
      type: 'array',
      items: { type: 'string' },
      uniqueItems: true,
      maxItems: 5,
    };
    const lowered = lowerByPolicy(schema, coherePolicy(false));
    expect(splitNote(property(lowered, 'max_results')['description'] as string).note).toEqual({
      minimum: 1,
      maximum: 50,
      default: 10,
    });
    expect(property(lowered, 'code')).toEqual({
      type: 'string',
      description: '(JSON Schema: {"pattern":"^[A-Z]{3}$","minLength":3})',
    });
    expect(property(lowered, 'tags')).toMatchObject({ uniqueItems: true });
    expect(property(lowerByPolicy(schema, coherePolicy(true)), 'tags')).not.toHaveProperty('uniqueItems');
    expect(lowered['additionalProperties']).toBe(false);
    expect(property(lowered, 'resolved_datetimes')['items']).toEqual({ type: 'string', format: 'date-time' });
    expect(restoreNotes(lowered)).toEqual(schema);
  });

  it('Anthropic strict drops numeric and length constraints, minItems above 1 and closes free-form objects', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        max_results: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
        options: { type: 'array', minItems: 2, items: { type: 'string', maxLength: 80 } },
        one: { type: 'array', minItems: 1, items: { type: 'string' } },
        metadata: { type: 'object', properties: {}, additionalProperties: { type: 'string' } },
        when: { type: 'string', format: 'date-time' },
        site: { type: 'string', format: 'uri' },
        slug: { type: 'string', format: 'regex' },
      },
      required: ['options'],
      additionalProperties: false,
    };
    const lowered = lowerByPolicy(schema, ANTHROPIC_STRICT_POLICY);
    expect(property(lowered, 'max_results')).toEqual({
      type: 'integer',
      default: 10,
      description: '(JSON Schema: {"minimum":1,"maximum":50})',
    });
    expect(property(lowered, 'options')).toEqual({
      type: 'array',
      items: { type: 'string', description: '(JSON Schema: {"maxLength":80})' },
      description: '(JSON Schema: {"minItems":2})',
    });
    expect(property(lowered, 'one')).toEqual({ type: 'array', minItems: 1, items: { type: 'string' } });
    expect(property(lowered, 'metadata')).toEqual({
      type: 'object',
      properties: {},
      additionalProperties: false,
      description: '(JSON Schema: {"additionalProperties":{"type":"string"}})',
    });
    expect(property(lowered, 'when')).toEqual({ type: 'string', format: 'date-time' });
    expect(property(lowered, 'site')).toEqual({ type: 'string', format: 'uri' });
    expect(property(lowered, 'slug')).toEqual({ type: 'string', description: '(JSON Schema: {"format":"regex"})' });
    expect(restoreNotes(lowered)).toEqual(schema);
  });
});

describe('references', () => {
  it('inlines local references and keeps recursive ones in the note', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { address: { $ref: '#/$defs/Address', description: 'Where.' }, tree: { $ref: '#/$defs/Node' } },
      $defs: {
        Address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        Node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/Node' } } } },
      },
    };
    expect(hasRecursiveReference(schema)).toBe(true);
    const inlined = inlineLocalReferences(schema);
    expect(property(inlined, 'address')).toEqual({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      description: 'Where.',
    });
    const tree = property(inlined, 'tree');
    expect((tree['properties'] as Record<string, JsonSchema>)['children']?.['items']).toEqual({
      type: 'object',
      description: '(JSON Schema: {"$ref":"#/$defs/Node"})',
    });
    expect(splitNote(inlined['description'] as string).note).toEqual({ $defs: schema['$defs'] });
    expect(
      hasRecursiveReference({
        type: 'object',
        properties: { a: { $ref: '#/$defs/A' } },
        $defs: { A: { type: 'string' } },
      }),
    ).toBe(false);
  });
});
