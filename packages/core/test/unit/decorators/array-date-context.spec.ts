import 'reflect-metadata';
import { ArrayOf, DateOnly, DateTime, FromContext, ToolParam, buildObjectSchema } from '@toolwright/core';

describe('@ArrayOf, @DateTime, @DateOnly and @FromContext: the IR', () => {
  it('@ArrayOf by kind name, by grammar and by DTO thunk, with array options and element constraints', () => {
    class Tag {
      @ToolParam() label!: string;
    }
    class Params {
      @ArrayOf('string', { minItems: 1, maxItems: 5, uniqueItems: true, maxLength: 20, description: 'Tags' })
      names!: string[];
      @ArrayOf('datetime') instants!: string[];
      @ArrayOf('int', { min: 1, enum: [1, 2, 3] }) levels!: number[];
      @ArrayOf(() => Tag, { minItems: 2 }) tags!: Tag[];
      @ArrayOf('array<int>') matrix!: number[][];
    }
    const tag = {
      kind: 'object',
      name: 'Tag',
      properties: [{ name: 'label', schema: { kind: 'string' }, required: true, aliases: [] }],
      additionalProperties: false,
      dto: Tag,
    };
    expect(buildObjectSchema(Params).properties.map((property) => property.schema)).toStrictEqual([
      {
        kind: 'array',
        items: { kind: 'string', maxLength: 20, lengthCount: 'class-validator' },
        minItems: 1,
        maxItems: 5,
        uniqueItems: true,
        description: 'Tags',
      },
      { kind: 'array', items: { kind: 'datetime' } },
      { kind: 'array', items: { kind: 'int', minimum: 1, enum: [1, 2, 3] } },
      { kind: 'array', items: tag, minItems: 2 },
      { kind: 'array', items: { kind: 'array', items: { kind: 'int' } } },
    ]);
  });

  it('@DateTime and @DateOnly with their options', () => {
    class Params {
      @DateTime({ description: 'Start', examples: ['2026-11-21T09:00:00+01:00'], aliases: ['begin'] }) start!: string;
      @DateOnly({ required: false, enum: ['2026-01-01', '2026-12-31'] }) day?: string;
      @DateTime({ nullable: true, policy: 'lenient', sensitive: true }) end!: Date | null;
    }
    expect(buildObjectSchema(Params).properties).toStrictEqual([
      {
        name: 'start',
        schema: { kind: 'datetime', description: 'Start', examples: ['2026-11-21T09:00:00+01:00'] },
        required: true,
        aliases: ['begin'],
      },
      { name: 'day', schema: { kind: 'date', enum: ['2026-01-01', '2026-12-31'] }, required: false, aliases: [] },
      {
        name: 'end',
        schema: { kind: 'datetime', nullable: true, policy: 'lenient' },
        required: true,
        aliases: [],
        sensitive: true,
      },
    ]);
  });

  it('@FromContext: every key, in the IR with `context`, strings for ids and URLs, free-form objects for config and persona', () => {
    class Params {
      @ToolParam() question!: string;
      @FromContext('session_id') sessionId?: string;
      @FromContext('job_id') jobId?: string;
      @FromContext('flow_step_id') flowStepId?: string;
      @FromContext('source_url') sourceUrl?: string;
      @FromContext('image_url', { description: 'The image' }) imageUrl?: string;
      @FromContext('handler_config', { required: true }) config!: Record<string, unknown>;
      @FromContext('persona') persona?: Record<string, unknown>;
    }
    const freeForm = { kind: 'object', properties: [], additionalProperties: true };
    expect(buildObjectSchema(Params).properties).toStrictEqual([
      { name: 'question', schema: { kind: 'string' }, required: true, aliases: [] },
      { name: 'sessionId', schema: { kind: 'string' }, required: false, aliases: [], context: 'session_id' },
      { name: 'jobId', schema: { kind: 'string' }, required: false, aliases: [], context: 'job_id' },
      { name: 'flowStepId', schema: { kind: 'string' }, required: false, aliases: [], context: 'flow_step_id' },
      { name: 'sourceUrl', schema: { kind: 'string' }, required: false, aliases: [], context: 'source_url' },
      {
        name: 'imageUrl',
        schema: { kind: 'string', description: 'The image' },
        required: false,
        aliases: [],
        context: 'image_url',
      },
      { name: 'config', schema: freeForm, required: true, aliases: [], context: 'handler_config' },
      { name: 'persona', schema: freeForm, required: false, aliases: [], context: 'persona' },
    ]);
  });
});
