import 'reflect-metadata';
import { ArrayOf, DateOnly, DateTime, DefinitionError, FromContext, ToolParam } from '@toolwright/core';
import { PARAM_METADATA, getOwnParamMetadata, getParamMetadata } from '@toolwright/core/internal';

describe('parameter metadata: the exact raw records each decorator writes', () => {
  it('@ToolParam stores its options as given, on the DTO class, under Symbol.for("toolwright:params")', () => {
    const options = { description: 'The question', minLength: 3, aliases: ['q'] };
    class AskParams {
      @ToolParam(options) question!: string;
    }
    expect(PARAM_METADATA).toBe(Symbol.for('toolwright:params'));
    expect(getOwnParamMetadata(AskParams)).toStrictEqual([
      {
        decorator: 'ToolParam',
        target: AskParams,
        propertyName: 'question',
        options: { description: 'The question', minLength: 3, aliases: ['q'] },
      },
    ]);
    expect(Reflect.getOwnMetadata(PARAM_METADATA, AskParams)).toBe(getOwnParamMetadata(AskParams));
  });

  it('records are frozen copies: changing the options object later changes nothing', () => {
    const options: { description: string } = { description: 'before' };
    class Params {
      @ToolParam(options) name!: string;
    }
    options.description = 'after';
    const [record] = getOwnParamMetadata(Params);
    expect(record?.options).toStrictEqual({ description: 'before' });
    expect(Object.isFrozen(record)).toBe(true);
    expect(Object.isFrozen(record?.options)).toBe(true);
  });

  it('@ToolParam() with no options stores empty options', () => {
    class Params {
      @ToolParam() name!: string;
    }
    expect(getOwnParamMetadata(Params)).toStrictEqual([
      { decorator: 'ToolParam', target: Params, propertyName: 'name', options: {} },
    ]);
  });

  it('@ArrayOf stores the element type exactly as given (thunk, kind name or grammar) and its options', () => {
    class Item {
      @ToolParam() label!: string;
    }
    const thunk = () => Item;
    class Params {
      @ArrayOf(thunk, { minItems: 2, description: 'Items' }) items!: Item[];
      @ArrayOf('string', { enum: ['a', 'b'] }) tags!: string[];
      @ArrayOf('date') days!: string[];
    }
    expect(getOwnParamMetadata(Params)).toStrictEqual([
      {
        decorator: 'ArrayOf',
        target: Params,
        propertyName: 'items',
        items: thunk,
        options: { minItems: 2, description: 'Items' },
      },
      { decorator: 'ArrayOf', target: Params, propertyName: 'tags', items: 'string', options: { enum: ['a', 'b'] } },
      { decorator: 'ArrayOf', target: Params, propertyName: 'days', items: 'date', options: {} },
    ]);
  });

  it('@DateTime, @DateOnly and @FromContext store their own records', () => {
    class Params {
      @DateTime({ description: 'Start' }) start!: string;
      @DateOnly({ required: false }) day?: string;
      @FromContext('session_id') sessionId?: string;
      @FromContext('handler_config', { required: true, description: 'Config' }) config!: Record<string, unknown>;
    }
    expect(getOwnParamMetadata(Params)).toStrictEqual([
      { decorator: 'DateTime', target: Params, propertyName: 'start', options: { description: 'Start' } },
      { decorator: 'DateOnly', target: Params, propertyName: 'day', options: { required: false } },
      { decorator: 'FromContext', target: Params, propertyName: 'sessionId', key: 'session_id', options: {} },
      {
        decorator: 'FromContext',
        target: Params,
        propertyName: 'config',
        key: 'handler_config',
        options: { required: true, description: 'Config' },
      },
    ]);
  });

  it('records are raw: an unknown context key is stored as given (the build refuses it, not the decorator)', () => {
    class Params {
      @FromContext('tenant_id' as never) tenant?: string;
    }
    expect(getOwnParamMetadata(Params)).toStrictEqual([
      { decorator: 'FromContext', target: Params, propertyName: 'tenant', key: 'tenant_id', options: {} },
    ]);
  });

  it('inheritance: a subclass sees its parents records; its own record replaces a parent record by property name, in the parent position', () => {
    class BaseParams {
      @ToolParam({ description: 'base id' }) id!: string;
      @ToolParam() note!: string;
    }
    class MiddleParams extends BaseParams {
      @ToolParam({ type: 'int' }) count!: number;
    }
    class LeafParams extends MiddleParams {
      @ToolParam({ description: 'leaf id' }) override id!: string;
      @ToolParam() extra!: string;
    }
    expect(getParamMetadata(LeafParams)).toStrictEqual([
      { decorator: 'ToolParam', target: LeafParams, propertyName: 'id', options: { description: 'leaf id' } },
      { decorator: 'ToolParam', target: BaseParams, propertyName: 'note', options: {} },
      { decorator: 'ToolParam', target: MiddleParams, propertyName: 'count', options: { type: 'int' } },
      { decorator: 'ToolParam', target: LeafParams, propertyName: 'extra', options: {} },
    ]);
    // The parent's own list is untouched by the subclass.
    expect(getOwnParamMetadata(BaseParams).map((record) => record.options)).toStrictEqual([
      { description: 'base id' },
      {},
    ]);
    expect(getOwnParamMetadata(MiddleParams).map((record) => record.propertyName)).toStrictEqual(['count']);
  });

  it('two toolwright decorators on one property are both recorded (the build refuses the pair)', () => {
    class Params {
      @ToolParam({ description: 'x' })
      @DateTime()
      when!: string;
    }
    expect(getParamMetadata(Params).map((record) => record.decorator)).toStrictEqual(['DateTime', 'ToolParam']);
  });

  it('refuses a static property or a symbol-named property at once (no class order is involved)', () => {
    const decorate = ToolParam({ type: 'string' });
    class Params {}
    expect(() => decorate(Params, 'name')).toThrow(
      new DefinitionError('@ToolParam is on a static property; parameters are instance properties of the DTO.', {
        target: 'Params',
        property: 'name',
        fix: 'remove `static`.',
      }),
    );
    expect(() => decorate(Params.prototype, Symbol('secret'))).toThrow(
      'Params.Symbol(secret): @ToolParam is on the symbol property Symbol(secret); parameter names are strings. Fix: decorate a string-named property.',
    );
    expect(getOwnParamMetadata(Params)).toStrictEqual([]);
  });
});
