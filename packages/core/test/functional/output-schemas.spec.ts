import 'reflect-metadata';
import {
  ArrayOf,
  Command,
  DateTime,
  DefinitionError,
  FromContext,
  PersonaToolExecutor,
  silentLogger,
  toJsonSchema,
  ToolParam,
  ToolContent,
  ToolRegistry,
  type ToolResult,
} from '@toolwright/core';
import { checkToolResult } from '@toolwright/core/internal';
import { RecordingLogger } from '../support/recording-logger';

class Line {
  @ToolParam({ description: 'Product' }) sku!: string;
  @ToolParam({ type: 'int', min: 1 }) quantity!: number;
}

class OrderResult {
  @ToolParam({ description: 'Order id' }) orderId!: string;
  @DateTime() placedAt!: string;
  @ArrayOf(() => Line) lines!: Line[];
  @ToolParam({ required: false }) note?: string;
}

class OrderParams {
  @ToolParam({ description: 'What to return: good, missing, wrong-type, extra, date, undefined, cycle' })
  mode!: string;
}

let handlerRuns = 0;

@Command({ name: 'place_order', description: 'Places an order', params: OrderParams, returns: OrderResult })
class PlaceOrderCommand {
  execute(params: OrderParams): unknown {
    handlerRuns++;
    const good = { orderId: 'o-1', placedAt: '2026-11-27T10:00:00+01:00', lines: [{ sku: 'A', quantity: 2 }] };
    switch (params.mode) {
      case 'good':
        return good;
      case 'missing':
        return { placedAt: good.placedAt, lines: good.lines };
      case 'wrong-type':
        return { ...good, lines: [{ sku: 'A', quantity: '2' }] };
      case 'extra':
        return { ...good, secret: 'internal' };
      case 'date':
        return { ...good, placedAt: new Date('2026-11-27T09:00:00Z') };
      case 'undefined':
        return undefined;
      default: {
        const cyclic: Record<string, unknown> = { ...good };
        cyclic['self'] = cyclic;
        return cyclic;
      }
    }
  }
}

async function run(
  mode: string,
  logger = new RecordingLogger(),
): Promise<{ result: ToolResult; logger: RecordingLogger }> {
  const registry = ToolRegistry.from([PlaceOrderCommand], { logger: silentLogger });
  const executor = new PersonaToolExecutor(registry, { logger });
  const result = await executor.execute({ id: `c-${mode}`, name: 'place_order', arguments: { mode } });
  return { result, logger };
}

describe('output schemas: @Command({ returns })', () => {
  beforeEach(() => {
    handlerRuns = 0;
  });

  it('keeps the result of a handler that returns the declared shape', async () => {
    const { result } = await run('good');
    expect(result).toMatchObject({ ok: true, value: { orderId: 'o-1', lines: [{ sku: 'A', quantity: 2 }] } });
    expect(handlerRuns).toBe(1);
  });

  it('checks the JSON form of the result: a Date for a @DateTime field is its ISO text', async () => {
    const { result } = await run('date');
    expect(result.ok).toBe(true);
  });

  it.each([
    ['missing', 'orderId', 'required'],
    ['wrong-type', 'lines[0].quantity', 'type'],
    ['extra', 'secret', 'unknown-key'],
  ])(
    'a handler returning the wrong shape (%s) gets RESULT_INVALID with the mismatch for the application',
    async (mode, path, rule) => {
      const { result, logger } = await run(mode);
      expect(handlerRuns).toBe(1);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.code).toBe('RESULT_INVALID');
      expect(result.error.retryable).toBe(false);
      expect(result.error.issues).toEqual([expect.objectContaining({ path, rule })]);
      // The model-facing message is generic: no path, no value, no schema detail.
      expect(result.error.message).toBe(
        'The tool "place_order" failed: it produced an invalid result. The arguments were valid; do not retry this call.',
      );
      expect(result.error.message).not.toContain(path);
      // Logged once, as an error, with the mismatch.
      const errors = logger.entries.filter((entry) => entry.level === 'error');
      expect(errors).toHaveLength(1);
      expect(errors[0]!.message).toBe('tool call place_order failed: RESULT_INVALID');
      expect(String(errors[0]!.details?.['cause'])).toContain(path);
    },
  );

  it('refuses a result that is no JSON value (undefined, a cycle)', async () => {
    for (const mode of ['undefined', 'cycle']) {
      const { result } = await run(mode);
      expect(result).toMatchObject({
        ok: false,
        error: { code: 'RESULT_INVALID', issues: [{ path: '', rule: 'result' }] },
      });
    }
  });

  it('exports the output schema as JSON Schema', () => {
    const definition = ToolRegistry.from([PlaceOrderCommand], { logger: silentLogger }).get('place_order')!;
    expect(toJsonSchema(definition.output!)).toEqual({
      type: 'object',
      properties: {
        orderId: { type: 'string', description: 'Order id' },
        placedAt: { type: 'string', format: 'date-time' },
        lines: {
          type: 'array',
          items: {
            type: 'object',
            properties: { sku: { type: 'string', description: 'Product' }, quantity: { type: 'integer', minimum: 1 } },
            required: ['sku', 'quantity'],
            additionalProperties: false,
          },
        },
        note: { type: 'string' },
      },
      required: ['orderId', 'placedAt', 'lines'],
      additionalProperties: false,
    });
  });

  it('refuses a `returns` that is not a class, or one with a context field, at registration', () => {
    @Command({ name: 'bad_returns', description: '', params: OrderParams, returns: 'OrderResult' as never })
    class BadReturnsCommand {
      execute(_params: OrderParams): unknown {
        return {};
      }
    }
    expect(() => ToolRegistry.from([BadReturnsCommand], { logger: silentLogger })).toThrow(DefinitionError);
    expect(() => ToolRegistry.from([BadReturnsCommand], { logger: silentLogger })).toThrow(/returns/);

    class WithSession {
      @FromContext('session_id') session!: string;
    }
    @Command({ name: 'context_returns', description: '', params: OrderParams, returns: WithSession })
    class ContextReturnsCommand {
      execute(_params: OrderParams): unknown {
        return {};
      }
    }
    expect(() => ToolRegistry.from([ContextReturnsCommand], { logger: silentLogger })).toThrow(
      /filled from the execution context/,
    );
  });
});

describe('output schemas: JSON-Schema and compact tools', () => {
  const outputSchema = {
    type: 'object',
    properties: { total: { type: 'integer', minimum: 0 }, currency: { enum: ['EUR', 'USD'] } },
    required: ['total'],
  };

  it('takes `outputSchema` from the options or the declaration, and checks each result', async () => {
    const registry = new ToolRegistry({ logger: silentLogger });
    let answer: unknown = { total: 3, currency: 'EUR', extra: 'kept' };
    registry.registerJsonSchemaTool({ name: 'sum', parameters: { type: 'object', properties: {} } }, () => answer, {
      outputSchema,
    });
    registry.registerJsonSchemaTool({ name: 'sum2', inputSchema: { type: 'object' }, outputSchema }, () => answer);
    registry.registerCompact({ command_name: 'sum3', parameters: [] }, () => answer, { outputSchema });
    const executor = new PersonaToolExecutor(registry, { logger: silentLogger });
    for (const name of ['sum', 'sum2', 'sum3']) {
      // Without `additionalProperties` an output object takes other keys, as JSON Schema reads it.
      expect(await executor.execute({ id: '1', name, arguments: '{}' })).toMatchObject({ ok: true });
    }
    answer = { total: -1, currency: 'GBP' };
    for (const name of ['sum', 'sum2', 'sum3']) {
      const result = await executor.execute({ id: '2', name, arguments: '{}' });
      expect(result).toMatchObject({ ok: false, error: { code: 'RESULT_INVALID' } });
      if (!result.ok) expect(result.error.issues.map((issue) => issue.path)).toEqual(['total', 'currency']);
    }
    expect(toJsonSchema(registry.get('sum2')!.output!)).toMatchObject({ required: ['total'] });
  });

  it('checks a ToolContent by its structuredContent, and refuses one without it', async () => {
    const registry = new ToolRegistry({ logger: silentLogger });
    const image = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } as const;
    let answer: unknown = new ToolContent([image], { total: 3, currency: 'EUR' });
    registry.registerJsonSchemaTool({ name: 'chart', inputSchema: { type: 'object' }, outputSchema }, () => answer);
    const executor = new PersonaToolExecutor(registry, { logger: silentLogger });
    const good = await executor.execute({ id: '1', name: 'chart', arguments: '{}' });
    expect(good).toMatchObject({ ok: true, modelOutput: { content: [image], structuredContent: { total: 3 } } });
    answer = new ToolContent([image], { total: -1 });
    const wrong = await executor.execute({ id: '2', name: 'chart', arguments: '{}' });
    expect(wrong).toMatchObject({ ok: false, error: { code: 'RESULT_INVALID' } });
    if (!wrong.ok) expect(wrong.error.issues.map((issue) => issue.path)).toEqual(['total']);
    answer = new ToolContent([image]);
    const none = await executor.execute({ id: '3', name: 'chart', arguments: '{}' });
    expect(none).toMatchObject({ ok: false, error: { code: 'RESULT_INVALID' } });
    if (!none.ok)
      expect(none.error.issues[0]!.message).toBe(
        'the result: expected a JSON object (the structuredContent of a ToolContent), received a ToolContent without structuredContent.',
      );
  });

  it('refuses an output schema that is not an object schema', () => {
    const registry = new ToolRegistry({ logger: silentLogger });
    expect(() => registry.registerJsonSchemaTool({ name: 'x', outputSchema: { type: 'string' } }, () => 'a')).toThrow(
      DefinitionError,
    );
  });

  it('checkToolResult: no output schema, no check', () => {
    const registry = new ToolRegistry({ logger: silentLogger });
    const definition = registry.registerJsonSchemaTool({ name: 'free' }, () => 1);
    expect(checkToolResult(definition, Symbol('anything'))).toEqual([]);
  });
});
