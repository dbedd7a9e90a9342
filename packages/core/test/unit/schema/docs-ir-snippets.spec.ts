import 'reflect-metadata';
import {
  datetimes,
  fromClass,
  fromCompact,
  fromJsonSchema,
  proposeJsonSchema,
  refusal,
} from '../../../../../docs/snippets/ir';

describe('docs/tool-definitions-ir.md snippets', () => {
  it('builds the decorated decision/propose tool and exports it without its context field', () => {
    expect(fromClass.name).toBe('decision/propose');
    expect(
      fromClass.parameters.properties.map((property) => [property.name, property.required, property.context]),
    ).toEqual([
      ['question', true, undefined],
      ['options', true, undefined],
      ['sessionId', false, 'session_id'],
    ]);
    expect(proposeJsonSchema).toEqual({
      type: 'object',
      properties: {
        question: { type: 'string', description: 'What to decide' },
        options: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              label: { type: 'string', description: 'Short name of the option' },
              description: { type: 'string', description: 'What choosing it means' },
              proposedBy: { type: 'string' },
            },
            required: ['label', 'description'],
            additionalProperties: false,
          },
          minItems: 2,
        },
      },
      required: ['question', 'options'],
      additionalProperties: false,
    });
  });

  it('imports the MCP tool under its namespace', () => {
    expect(fromJsonSchema.name).toBe('filesystem.read_file');
    expect(fromJsonSchema.parameters.properties.map((property) => property.schema)).toEqual([
      { kind: 'string', minLength: 1 },
      { kind: 'string', enum: ['utf8', 'latin1'], default: 'utf8' },
      { kind: 'datetime', nullable: true },
    ]);
  });

  it('builds the compact get_calendar_events tool', () => {
    expect(fromCompact.parameters.properties[0]).toEqual({
      name: 'resolved_datetimes',
      schema: { kind: 'array', items: { kind: 'datetime' }, description: 'ISO-8601 with offset' },
      required: true,
      aliases: [],
    });
    expect(datetimes).toEqual({ kind: 'array', items: { kind: 'datetime' } });
  });

  it('shows the refusal message', () => {
    expect(refusal()).toBe(
      "search.#/properties/query/not: The keyword 'not' excludes values by a schema; toolwright refuses it rather than drop the constraint. " +
        'Fix: Express the allowed values positively (enum, pattern, bounds), or validate in the handler.',
    );
  });
});
