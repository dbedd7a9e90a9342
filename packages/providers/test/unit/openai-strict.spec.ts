import 'reflect-metadata';
import { toStrictJsonSchema } from 'openai/lib/transform';
import { lowerOpenAIStrict, stripStrictNulls } from '../../src/shared/lowering/openai-strict';
import { restoreNotes, undoStrictOptionals } from '../../src/shared/lowering/reverse';
import { OPTIONAL_NULL_MARKER, splitNote } from '../../src/shared/description-notes';
import type { JsonSchema } from '../../src/shared/json-schema';
import { CANONICAL_SCHEMA } from '../support/canonical';

const canonical = (): JsonSchema => JSON.parse(JSON.stringify(CANONICAL_SCHEMA)) as JsonSchema;

describe('OpenAI strict lowering', () => {
  it('makes every property required and the optional ones nullable, with additionalProperties false', () => {
    const strict = lowerOpenAIStrict(canonical());
    expect(strict['required']).toEqual(['resolved_datetimes', 'calendar', 'max_results', 'include_declined']);
    expect(strict['additionalProperties']).toBe(false);
    const properties = strict['properties'] as Record<string, JsonSchema>;
    expect(properties['resolved_datetimes']?.['type']).toEqual(['array', 'null']);
    expect(properties['calendar']).toEqual(CANONICAL_SCHEMA.properties.calendar);
    expect(properties['max_results']?.['type']).toEqual(['integer', 'null']);
    expect(properties['include_declined']?.['type']).toEqual(['boolean', 'null']);
    // minimum/maximum are supported; default is dropped (Azure rejects it) and kept in the description.
    expect(properties['max_results']).toMatchObject({ minimum: 1, maximum: 50 });
    expect(properties['max_results']).not.toHaveProperty('default');
    expect(properties['max_results']?.['description']).toBe(
      `Maximum number of events to return (1-50). Defaults to 10. ${OPTIONAL_NULL_MARKER} (JSON Schema: {"default":10})`,
    );
  });

  it("passes OpenAI's own strict-schema normaliser unchanged (the canonical schema does not)", () => {
    expect(() => toStrictJsonSchema(canonical() as never)).toThrow(/nullable/);
    const strict = lowerOpenAIStrict(canonical());
    expect(toStrictJsonSchema(JSON.parse(JSON.stringify(strict)) as never)).toEqual(strict);
  });

  it('closes nested objects, adds null to enums, wraps untyped variants and moves unsupported keywords', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        options: {
          type: 'array',
          minItems: 2,
          uniqueItems: true,
          items: {
            type: 'object',
            properties: { label: { type: 'string' }, proposedBy: { type: 'string', format: 'uri' } },
            required: ['label'],
            additionalProperties: false,
          },
        },
        color: { type: 'string', enum: ['red', 'blue'] },
        choice: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        either: { oneOf: [{ type: 'string' }, { type: 'boolean' }] },
      },
      required: ['options', 'either'],
      additionalProperties: false,
    };
    const strict = lowerOpenAIStrict(schema);
    const properties = strict['properties'] as Record<string, JsonSchema>;
    const items = (properties['options']?.['items'] ?? {}) as JsonSchema;
    expect(items['required']).toEqual(['label', 'proposedBy']);
    expect((items['properties'] as Record<string, JsonSchema>)['proposedBy']).toEqual({
      type: ['string', 'null'],
      description: `${OPTIONAL_NULL_MARKER} (JSON Schema: {"format":"uri"})`,
    });
    expect(properties['options']).toMatchObject({ minItems: 2 });
    expect(splitNote(properties['options']?.['description'] as string).note).toEqual({ uniqueItems: true });
    expect(properties['color']).toMatchObject({ type: ['string', 'null'], enum: ['red', 'blue', null] });
    expect(properties['choice']?.['anyOf']).toEqual([{ type: 'string' }, { type: 'integer' }, { type: 'null' }]);
    expect(properties['either']).toEqual({ anyOf: [{ type: 'string' }, { type: 'boolean' }] });
    expect(toStrictJsonSchema(JSON.parse(JSON.stringify(strict)) as never)).toEqual(strict);
  });

  it('is undone by the reverse adapter', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        a: { type: 'string', description: 'A.', format: 'uri' },
        b: { type: ['integer', 'null'], description: 'B.' },
        c: { type: 'object', properties: { d: { type: 'boolean' } }, required: [], additionalProperties: false },
        e: { type: 'string', enum: ['x', 'y'] },
      },
      required: ['a'],
      additionalProperties: false,
    };
    const back = restoreNotes(undoStrictOptionals(lowerOpenAIStrict(schema)));
    expect(back).toEqual({
      ...schema,
      properties: {
        ...(schema['properties'] as object),
        c: { type: 'object', properties: { d: { type: 'boolean' } }, additionalProperties: false },
      },
    });
  });
});

describe('stripStrictNulls', () => {
  it('removes the nulls of optional properties, recursively, and records each', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        calendar: { type: 'string' },
        note: { type: ['string', 'null'] },
        limit: { type: 'integer' },
        options: {
          type: 'array',
          items: {
            type: 'object',
            properties: { label: { type: 'string' }, by: { type: 'string' } },
            required: ['label'],
          },
        },
      },
      required: ['calendar'],
    };
    const result = stripStrictNulls(
      {
        calendar: 'work',
        note: null,
        limit: null,
        options: [
          { label: 'A', by: null },
          { label: 'B', by: 'me' },
        ],
      },
      schema,
    );
    expect(result.arguments).toEqual({
      calendar: 'work',
      note: null,
      options: [{ label: 'A' }, { label: 'B', by: 'me' }],
    });
    expect(result.transformations).toEqual([
      { path: 'limit', rule: 'strict-null-to-absent', from: null, to: undefined },
      { path: 'options[0].by', rule: 'strict-null-to-absent', from: null, to: undefined },
    ]);
  });

  it('leaves required nulls for the executor to report', () => {
    const result = stripStrictNulls(
      { calendar: null },
      { type: 'object', properties: { calendar: { type: 'string' } }, required: ['calendar'] },
    );
    expect(result.arguments).toEqual({ calendar: null });
    expect(result.transformations).toEqual([]);
  });
});
