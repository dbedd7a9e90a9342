import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayMinSize,
  ArrayNotEmpty,
  ArrayUnique,
  Equals,
  IsArray,
  IsBoolean,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsPositive,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { ArrayOf, DateTime, FromContext, ToolParam, buildObjectSchema } from '@toolwright/core';

const string = { kind: 'string' } as const;

describe('buildObjectSchema: the exact IR of DTO classes', () => {
  it('seed decision/propose: a question and options of {label, description, proposedBy?}, at least two', () => {
    class ProposalOption {
      @ToolParam({ description: 'Short label of the option' }) label!: string;
      @ToolParam({ description: 'What the option means' }) description!: string;
      @ToolParam({ description: 'Who proposed it', required: false }) proposedBy?: string;
    }
    class ProposeParams {
      @ToolParam({ description: 'The question to decide' }) question!: string;
      @ArrayOf(() => ProposalOption, { minItems: 2, description: 'The options to choose from' })
      options!: ProposalOption[];
      @FromContext('session_id') sessionId?: string;
    }
    expect(buildObjectSchema(ProposeParams)).toStrictEqual({
      kind: 'object',
      name: 'ProposeParams',
      properties: [
        {
          name: 'question',
          schema: { kind: 'string', description: 'The question to decide' },
          required: true,
          aliases: [],
        },
        {
          name: 'options',
          schema: {
            kind: 'array',
            items: {
              kind: 'object',
              name: 'ProposalOption',
              properties: [
                {
                  name: 'label',
                  schema: { kind: 'string', description: 'Short label of the option' },
                  required: true,
                  aliases: [],
                },
                {
                  name: 'description',
                  schema: { kind: 'string', description: 'What the option means' },
                  required: true,
                  aliases: [],
                },
                {
                  name: 'proposedBy',
                  schema: { kind: 'string', description: 'Who proposed it' },
                  required: false,
                  aliases: [],
                },
              ],
              additionalProperties: false,
              dto: ProposalOption,
            },
            minItems: 2,
            description: 'The options to choose from',
          },
          required: true,
          aliases: [],
        },
        { name: 'sessionId', schema: string, required: false, aliases: [], context: 'session_id' },
      ],
      additionalProperties: false,
      dto: ProposeParams,
    });
  });

  it('seed get_calendar_events: resolved_datetimes as array<datetime>', () => {
    class GetCalendarEventsParams {
      @ToolParam({ type: 'array<datetime>', description: 'The resolved date-times to look up' })
      resolved_datetimes!: string[];
      @ToolParam({ required: false, description: 'Calendar id' }) calendar?: string;
    }
    expect(buildObjectSchema(GetCalendarEventsParams)).toStrictEqual({
      kind: 'object',
      name: 'GetCalendarEventsParams',
      properties: [
        {
          name: 'resolved_datetimes',
          schema: { kind: 'array', items: { kind: 'datetime' }, description: 'The resolved date-times to look up' },
          required: true,
          aliases: [],
        },
        { name: 'calendar', schema: { kind: 'string', description: 'Calendar id' }, required: false, aliases: [] },
      ],
      additionalProperties: false,
      dto: GetCalendarEventsParams,
    });
  });

  it('inheritance: parent properties first, subclass overrides in place, subclass name and dto', () => {
    class PageParams {
      @ToolParam({ type: 'int', min: 1, description: 'Page' }) page!: number;
      @ToolParam({ type: 'int', max: 100 }) size!: number;
    }
    class SearchParams extends PageParams {
      @ToolParam({ description: 'Query' }) query!: string;
      @ToolParam({ type: 'int', max: 50, required: false }) declare size: number;
    }
    expect(buildObjectSchema(SearchParams)).toStrictEqual({
      kind: 'object',
      name: 'SearchParams',
      properties: [
        { name: 'page', schema: { kind: 'int', minimum: 1, description: 'Page' }, required: true, aliases: [] },
        { name: 'size', schema: { kind: 'int', maximum: 50 }, required: false, aliases: [] },
        { name: 'query', schema: { kind: 'string', description: 'Query' }, required: true, aliases: [] },
      ],
      additionalProperties: false,
      dto: SearchParams,
    });
    expect(buildObjectSchema(PageParams).properties.map((property) => property.name)).toStrictEqual(['page', 'size']);
  });

  it('nested DTOs inside nested DTOs, an array of DTOs inside a nested DTO', () => {
    class Geo {
      @ToolParam({ type: 'float' }) lat!: number;
      @ToolParam({ type: 'float' }) lng!: number;
    }
    class Stop {
      @ToolParam() name!: string;
      @ToolParam({ type: () => Geo, required: false }) geo?: Geo;
    }
    class Route {
      @ArrayOf(() => Stop, { minItems: 1 }) stops!: Stop[];
    }
    class TripParams {
      @ToolParam({ type: () => Route }) route!: Route;
    }
    const geo = {
      kind: 'object',
      name: 'Geo',
      properties: [
        { name: 'lat', schema: { kind: 'float' }, required: true, aliases: [] },
        { name: 'lng', schema: { kind: 'float' }, required: true, aliases: [] },
      ],
      additionalProperties: false,
      dto: Geo,
    };
    const stop = {
      kind: 'object',
      name: 'Stop',
      properties: [
        { name: 'name', schema: string, required: true, aliases: [] },
        { name: 'geo', schema: geo, required: false, aliases: [] },
      ],
      additionalProperties: false,
      dto: Stop,
    };
    expect(buildObjectSchema(TripParams).properties).toStrictEqual([
      {
        name: 'route',
        schema: {
          kind: 'object',
          name: 'Route',
          properties: [
            { name: 'stops', schema: { kind: 'array', items: stop, minItems: 1 }, required: true, aliases: [] },
          ],
          additionalProperties: false,
          dto: Route,
        },
        required: true,
        aliases: [],
      },
    ]);
  });

  it('extracted properties stay model-visible and optional by default', () => {
    class SummarizeParams {
      @ToolParam({ extract: 'content', description: 'The text' }) text?: string;
      @ToolParam({ extract: 'title' }) title?: string;
    }
    expect(buildObjectSchema(SummarizeParams).properties).toStrictEqual([
      {
        name: 'text',
        schema: { kind: 'string', description: 'The text' },
        required: false,
        aliases: [],
        extract: 'content',
      },
      { name: 'title', schema: string, required: false, aliases: [], extract: 'title' },
    ]);
  });

  it('is built once per class, deep-frozen, leaving the DTO class and the developer values alone', () => {
    const fallback = { mode: 'fast' };
    class CachedParams {
      @ToolParam({ type: 'object', default: fallback, examples: [{ mode: 'slow' }] }) settings!: Record<
        string,
        unknown
      >;
    }
    const schema = buildObjectSchema(CachedParams);
    expect(buildObjectSchema(CachedParams)).toBe(schema);
    expect(Object.isFrozen(schema)).toBe(true);
    expect(Object.isFrozen(schema.properties)).toBe(true);
    expect(Object.isFrozen(schema.properties[0])).toBe(true);
    expect(Object.isFrozen(schema.properties[0]?.schema)).toBe(true);
    expect(Object.isFrozen((schema.properties[0]?.schema as { default: object }).default)).toBe(true);
    expect(Object.isFrozen(fallback)).toBe(false);
    expect(Object.isFrozen(CachedParams)).toBe(false);
    expect(schema.properties[0]?.schema).toStrictEqual({
      kind: 'object',
      properties: [],
      additionalProperties: true,
      default: { mode: 'fast' },
      examples: [{ mode: 'slow' }],
    });
  });
});

describe('buildObjectSchema: class-validator decorators appear where JSON Schema can say them', () => {
  it('on toolwright-decorated properties: formats, lengths, bounds (the tighter wins), enums (intersected), optional', () => {
    class ContactParams {
      @IsEmail() @ToolParam({ description: 'Email' }) email!: string;
      @Length(2, 30) @ToolParam({ maxLength: 20 }) name!: string;
      @Min(5) @Max(500) @ToolParam({ type: 'int', min: 1, max: 100 }) amount!: number;
      @IsIn(['a', 'b', 'c']) @ToolParam({ enum: ['b', 'c', 'd'] }) letter!: string;
      @Matches(/^[A-Z]{2}$/) @ToolParam() country!: string;
      @Matches(/^x/i) @ToolParam() flagged!: string;
      @IsOptional() @ToolParam() nickname?: string;
      @IsUUID() @ToolParam() id!: string;
      @IsPositive() @ToolParam({ type: 'float' }) price!: number;
      @ArrayMinSize(2)
      @ArrayUnique()
      @MaxLength(3, { each: true })
      @ArrayOf('string', { minItems: 1 })
      codes!: string[];
      @ArrayNotEmpty() @ToolParam({ type: 'int[]' }) ids!: number[];
      @Equals('yes') @ToolParam() confirm!: string;
    }
    expect(buildObjectSchema(ContactParams).properties).toStrictEqual([
      { name: 'email', schema: { kind: 'string', description: 'Email', format: 'email' }, required: true, aliases: [] },
      {
        name: 'name',
        schema: { kind: 'string', minLength: 2, maxLength: 20, lengthCount: 'class-validator' },
        required: true,
        aliases: [],
      },
      { name: 'amount', schema: { kind: 'int', minimum: 5, maximum: 100 }, required: true, aliases: [] },
      { name: 'letter', schema: { kind: 'string', enum: ['b', 'c'] }, required: true, aliases: [] },
      { name: 'country', schema: { kind: 'string', pattern: '^[A-Z]{2}$' }, required: true, aliases: [] },
      // A pattern with flags cannot be said in JSON Schema: it is validated, not exported.
      { name: 'flagged', schema: string, required: true, aliases: [] },
      { name: 'nickname', schema: string, required: false, aliases: [] },
      { name: 'id', schema: { kind: 'string', format: 'uuid' }, required: true, aliases: [] },
      { name: 'price', schema: { kind: 'float', exclusiveMinimum: 0 }, required: true, aliases: [] },
      {
        name: 'codes',
        schema: {
          kind: 'array',
          items: { kind: 'string', maxLength: 3, lengthCount: 'class-validator' },
          minItems: 2,
          uniqueItems: true,
        },
        required: true,
        aliases: [],
      },
      { name: 'ids', schema: { kind: 'array', items: { kind: 'int' }, minItems: 1 }, required: true, aliases: [] },
      { name: 'confirm', schema: { kind: 'string', enum: ['yes'] }, required: true, aliases: [] },
    ]);
  });

  it('a plain class-validator DTO (no toolwright decorator) becomes parameters too', () => {
    enum Priority {
      Low = 'low',
      High = 'high',
    }
    class Attachment {
      @IsString() url!: string;
    }
    class TicketParams {
      @IsString() @MinLength(3) title!: string;
      @IsInt() @Min(0) points!: number;
      @IsNumber() estimate!: number;
      @IsBoolean() @IsOptional() urgent?: boolean;
      @IsEnum(Priority) priority!: Priority;
      @IsOptional() @IsString() note?: string;
      @IsArray() @IsString({ each: true }) @ArrayMinSize(1) labels!: string[];
      @ValidateNested() @Type(() => Attachment) cover!: Attachment;
      @IsArray() @ValidateNested({ each: true }) @Type(() => Attachment) attachments!: Attachment[];
      @IsObject() extra!: Record<string, unknown>;
      @IsEmail() reporter!: string;
    }
    const attachment = {
      kind: 'object',
      name: 'Attachment',
      properties: [{ name: 'url', schema: string, required: true, aliases: [] }],
      additionalProperties: false,
      dto: Attachment,
    };
    expect(buildObjectSchema(TicketParams)).toStrictEqual({
      kind: 'object',
      name: 'TicketParams',
      properties: [
        {
          name: 'title',
          schema: { kind: 'string', minLength: 3, lengthCount: 'class-validator' },
          required: true,
          aliases: [],
        },
        { name: 'points', schema: { kind: 'int', minimum: 0 }, required: true, aliases: [] },
        { name: 'estimate', schema: { kind: 'float' }, required: true, aliases: [] },
        { name: 'urgent', schema: { kind: 'bool' }, required: false, aliases: [] },
        { name: 'priority', schema: { kind: 'string', enum: ['low', 'high'] }, required: true, aliases: [] },
        { name: 'note', schema: string, required: false, aliases: [] },
        { name: 'labels', schema: { kind: 'array', items: string, minItems: 1 }, required: true, aliases: [] },
        { name: 'cover', schema: attachment, required: true, aliases: [] },
        { name: 'attachments', schema: { kind: 'array', items: attachment }, required: true, aliases: [] },
        {
          name: 'extra',
          schema: { kind: 'object', properties: [], additionalProperties: true },
          required: true,
          aliases: [],
        },
        { name: 'reporter', schema: { kind: 'string', format: 'email' }, required: true, aliases: [] },
      ],
      additionalProperties: false,
      dto: TicketParams,
    });
  });

  it('keeps declaration order when toolwright and plain class-validator properties mix', () => {
    class MixedParams {
      @IsString() first!: string;
      @ToolParam() second!: string;
      @DateTime() third!: string;
      @IsOptional() @IsBoolean() fourth?: boolean;
    }
    expect(buildObjectSchema(MixedParams).properties.map((property) => property.name)).toStrictEqual([
      'first',
      'second',
      'third',
      'fourth',
    ]);
  });

  it('keeps declaration order when records and plain class-validator rules interleave several times', () => {
    class InterleavedParams {
      @ToolParam() alpha!: string;
      @IsString() beta!: string;
      @IsInt() gamma!: number;
      @ToolParam() delta!: string;
      @DateTime() epsilon!: string;
      @IsEmail() @ToolParam() zeta!: string;
      @IsBoolean() eta!: boolean;
      @ToolParam({ type: 'int' }) theta!: number;
    }
    expect(buildObjectSchema(InterleavedParams).properties.map((property) => property.name)).toStrictEqual([
      'alpha',
      'beta',
      'gamma',
      'delta',
      'epsilon',
      'zeta',
      'eta',
      'theta',
    ]);
  });

  it("a subclass built after its ancestor's rules were applied gets the ancestor's properties as the ancestor has them", () => {
    class Nested {
      @ToolParam({ type: 'int', min: 1 }) count!: number;
    }
    class BaseParams {
      @ToolParam({ description: 'The title', minLength: 2 }) title!: string;
      @ToolParam({ type: () => Nested, required: false }) nested?: Nested;
    }
    const base = buildObjectSchema(BaseParams);
    class DerivedParams extends BaseParams {
      @ToolParam({ type: 'bool' }) flag!: boolean;
    }
    const derived = buildObjectSchema(DerivedParams);
    expect(derived.properties.map((property) => property.name)).toStrictEqual(['title', 'nested', 'flag']);
    // Equal values (the ancestor's records are resolved again: their kept resolutions went when its rules were applied).
    expect(derived.properties.slice(0, 2)).toStrictEqual(base.properties);
    expect(Object.isFrozen(derived.properties[1]!.schema)).toBe(true);
  });
});
