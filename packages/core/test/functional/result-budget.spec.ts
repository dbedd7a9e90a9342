import 'reflect-metadata';
import {
  Command,
  DefinitionError,
  PersonaToolExecutor,
  runToolLoop,
  ScriptedChatModel,
  silentLogger,
  ToolContent,
  ToolParam,
  ToolRegistry,
  type ContentPart,
  type ToolResult,
} from '@toolwright/core';
import { cutJson, cutText, DEFAULT_RESULT_BUDGET_CHARS, modelContent } from '@toolwright/core/internal';
import { z } from 'zod';
import { RecordingLogger } from '../support/recording-logger';

/** About 5 MB of JSON: 20,000 orders, each with a long text. */
function bigValue(): { orders: { id: number; note: string; tags: string[] }[]; total: number } {
  const orders = Array.from({ length: 20_000 }, (_, index) => ({
    id: index,
    note: `order ${index}: ${'x'.repeat(240)}`,
    tags: ['a', 'b'],
  }));
  return { orders, total: orders.length };
}

class PageParams {
  @ToolParam({ description: 'Where to continue', required: false }) cursor?: string;
}

@Command({ name: 'list_orders', description: 'Lists orders', params: PageParams })
class ListOrdersCommand {
  execute(): unknown {
    return bigValue();
  }
}

class NoParams {}

@Command({ name: 'read_log', description: 'Reads the log', params: NoParams, resultBudgetChars: 2_000 })
class ReadLogCommand {
  execute(): string {
    return Array.from({ length: 500 }, (_, line) => `line ${line} of the log`).join('\n');
  }
}

@Command({
  name: 'order_summary',
  description: 'One order',
  params: NoParams,
  toModelOutput: (value: { id: string; internal: string }) => `Order ${value.id}`,
})
class OrderSummaryCommand {
  execute(): { id: string; internal: string } {
    return { id: 'o-1', internal: 'not for the model' };
  }
}

const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';

@Command({ name: 'chart', description: 'Draws a chart', params: NoParams })
class ChartCommand {
  execute(): ToolContent {
    return new ToolContent([
      { type: 'text', text: 'Sales by month' },
      { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
    ]);
  }
}

/** The JSON part of a cut view parses, and the last part is the note. */
function cutView(result: ToolResult): { json: unknown; note: string; parts: readonly ContentPart[] } {
  if (!result.ok) throw new Error(`failed: ${result.error.message}`);
  const parts = modelContent(result);
  const jsonPart = parts.find((part) => part.type === 'json');
  const note = parts[parts.length - 1]!;
  if (note.type !== 'text') throw new Error('no note');
  return { json: JSON.parse(JSON.stringify((jsonPart as { value: unknown }).value)), note: note.text, parts };
}

function viewChars(parts: readonly ContentPart[]): number {
  return parts.reduce(
    (sum, part) =>
      sum + (part.type === 'text' ? part.text.length : part.type === 'json' ? JSON.stringify(part.value).length : 0),
    0,
  );
}

describe('the result budget', () => {
  const registry = new ToolRegistry();
  registry.register(ListOrdersCommand);
  registry.register(ReadLogCommand);
  registry.register(OrderSummaryCommand);
  registry.register(ChartCommand);
  registry.registerJsonSchemaTool(
    { name: 'json_orders', parameters: { type: 'object', properties: { page: { type: 'integer' } } } },
    () => bigValue(),
  );
  registry.registerStandardSchemaTool(
    { name: 'zod_orders', schema: z.object({ limit: z.number().int().optional() }) },
    () => bigValue(),
  );
  const logger = new RecordingLogger();
  const executor = new PersonaToolExecutor(registry, { logger, telemetry: false });

  it.each([
    ['a @Command class', 'list_orders', 'cursor'],
    ['a JSON-Schema tool', 'json_orders', 'page'],
    ['a Standard Schema tool', 'zod_orders', undefined],
  ])('cuts a 5 MB result of %s to the default budget, as valid JSON with a note', async (_kind, tool, cursor) => {
    const result = await executor.execute({ id: 'c1', name: tool, arguments: '{}' });
    if (!result.ok) throw new Error(result.error.message);
    // The application's value is whole.
    expect(JSON.stringify(result.value).length).toBeGreaterThan(5_000_000);
    expect((result.value as { orders: unknown[] }).orders).toHaveLength(20_000);
    const { json, note, parts } = cutView(result);
    expect(viewChars(parts)).toBeLessThanOrEqual(DEFAULT_RESULT_BUDGET_CHARS);
    expect(viewChars(parts)).toBeGreaterThan(DEFAULT_RESULT_BUDGET_CHARS * 0.6);
    const orders = (json as { orders: unknown[] }).orders;
    expect(orders.length).toBeLessThan(20_000);
    expect(orders[orders.length - 1]).toMatch(/^…\[[\d,]+ more items\]$/);
    expect((json as { total: number }).total).toBe(20_000);
    expect(note).toContain(
      'This result was cut to fit the tool-result budget of 80,000 characters (about 20,000 tokens)',
    );
    expect(note).toMatch(/Left out: [\d,]+ array items \(from 1 array\)/);
    if (cursor === undefined) expect(note).toContain(`call ${tool} again with narrower arguments`);
    else expect(note).toContain(`call ${tool} again with its \`${cursor}\` parameter`);
    const truncation = result.modelOutput!.truncation!;
    expect(truncation).toMatchObject({ budgetChars: 80_000, arraysShortened: 1 });
    expect(truncation.itemsLeftOut).toBe(20_000 - (orders.length - 1));
    expect(truncation.originalChars).toBe(JSON.stringify(result.value).length);
    expect(truncation.sentChars).toBe(viewChars(parts));
    // ... and the log says so.
    expect(logger.entries).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: expect.stringContaining(`tool result cut to budget: ${tool}`) as unknown,
        details: expect.objectContaining({ originalChars: truncation.originalChars }) as unknown,
      }),
    );
  });

  it('cuts text at a line boundary, within a per-command budget', async () => {
    const result = await executor.execute({ id: 'c2', name: 'read_log', arguments: '{}' });
    if (!result.ok) throw new Error(result.error.message);
    expect((result.value as string).split('\n')).toHaveLength(500);
    const parts = modelContent(result);
    expect(parts).toHaveLength(2);
    const text = (parts[0] as { text: string }).text;
    expect(text.endsWith('of the log')).toBe(true);
    expect(viewChars(parts)).toBeLessThanOrEqual(2_000);
    expect((parts[1] as { text: string }).text).toMatch(/Left out: [\d,]+ characters \(from 1 text\)/);
  });

  it('leaves a result within the budget as it is (no model view)', async () => {
    const small = new PersonaToolExecutor(registry, { logger: silentLogger, resultBudgetChars: 100_000_000 });
    const result = await small.execute({ id: 'c3', name: 'list_orders', arguments: '{}' });
    expect(result.ok && result.modelOutput).toBe(undefined);
  });

  it('an executor budget of Infinity turns the budget off; a tool budget overrides the executor', async () => {
    const unbounded = new PersonaToolExecutor(registry, {
      logger: silentLogger,
      resultBudgetChars: Number.POSITIVE_INFINITY,
    });
    const whole = await unbounded.execute({ id: 'c4', name: 'json_orders', arguments: '{}' });
    expect(whole.ok && whole.modelOutput).toBe(undefined);
    const log = await unbounded.execute({ id: 'c5', name: 'read_log', arguments: '{}' });
    expect(log.ok && log.modelOutput?.truncation?.budgetChars).toBe(2_000);
  });

  it('refuses an invalid budget at startup', () => {
    expect(() => new PersonaToolExecutor(registry, { resultBudgetChars: 0 })).toThrow(DefinitionError);
    expect(() => new PersonaToolExecutor(registry, { resultBudgetChars: 1.5 })).toThrow(/resultBudgetChars/);
    const other = new ToolRegistry();
    expect(() => other.registerJsonSchemaTool({ name: 't' }, () => 1, { resultBudgetChars: -1 })).toThrow(
      /resultBudgetChars/,
    );
  });
});

describe('the model view', () => {
  const registry = new ToolRegistry();
  registry.register(OrderSummaryCommand);
  registry.register(ChartCommand);
  registry.registerJsonSchemaTool({ name: 'weather' }, () => ({ celsius: 21, raw: 'x'.repeat(50) }), {
    toModelOutput: (value: { celsius: number }) => ({ celsius: value.celsius }),
  });
  registry.registerJsonSchemaTool({ name: 'broken_view' }, () => 1, {
    toModelOutput: () => {
      throw new Error('view failed');
    },
  });
  const executor = new PersonaToolExecutor(registry, { logger: silentLogger });

  it('toModelOutput on a command: the model reads the view, the application the value', async () => {
    const result = await executor.execute({ id: 'v1', name: 'order_summary', arguments: '{}' });
    expect(result).toMatchObject({
      ok: true,
      value: { id: 'o-1', internal: 'not for the model' },
      modelOutput: { content: [{ type: 'text', text: 'Order o-1' }] },
    });
  });

  it('toModelOutput on a JSON-Schema tool: a JSON view', async () => {
    const result = await executor.execute({ id: 'v2', name: 'weather', arguments: '{}' });
    expect(result).toMatchObject({ ok: true, modelOutput: { content: [{ type: 'json', value: { celsius: 21 } }] } });
  });

  it('a toModelOutput that throws is a HANDLER_ERROR', async () => {
    const result = await executor.execute({ id: 'v3', name: 'broken_view', arguments: '{}' });
    expect(result).toMatchObject({ ok: false, error: { code: 'HANDLER_ERROR' } });
  });

  it('a ToolContent value: its parts are the view', async () => {
    const result = await executor.execute({ id: 'v4', name: 'chart', arguments: '{}' });
    if (!result.ok) throw new Error(result.error.message);
    expect(ToolContent.isInstance(result.value)).toBe(true);
    expect(modelContent(result)).toEqual([
      { type: 'text', text: 'Sales by month' },
      { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
    ]);
  });
});

describe('cutJson and cutText', () => {
  it('keeps strings, arrays and objects well-formed, with counts', () => {
    const value = { a: 'y'.repeat(10_000), list: Array.from({ length: 1_000 }, (_, index) => index), n: 1 };
    const cut = cutJson(value, 1_000)!;
    expect(cut.text.length).toBeLessThanOrEqual(1_000);
    expect(JSON.parse(cut.text)).toEqual(cut.value);
    expect(cut.counts.stringsShortened).toBe(1);
    expect(cut.counts.arraysShortened).toBe(1);
  });

  it('survives cycles, toJSON, bigint and __proto__ keys', () => {
    const cyclic: Record<string, unknown> = {
      when: new Date(0),
      big: 10n,
      list: new Array(5_000).fill('z'.repeat(20)),
    };
    cyclic['self'] = cyclic;
    const hostile = JSON.parse('{"__proto__": {"polluted": true}, "x": "' + 'q'.repeat(5_000) + '"}') as unknown;
    const cut = cutJson({ cyclic, hostile }, 2_000)!;
    expect(cut.text.length).toBeLessThanOrEqual(2_000);
    expect(cut.text).toContain('"[circular]"');
    expect(cut.text).toContain('"1970-01-01T00:00:00.000Z"');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf((cut.value as { hostile: object }).hostile)).toBe(Object.prototype);
  });

  it('a deep value is cut by depth; a budget too small for anything gives undefined', () => {
    let deep: unknown = 'leaf';
    for (let level = 0; level < 10_000; level++) deep = { next: deep };
    const cut = cutJson(deep, 500)!;
    expect(cut.text.length).toBeLessThanOrEqual(500);
    expect(cutJson({ a: [1, 2, 3] }, 3)).toBeUndefined();
  });

  it('cuts text at a line, else a word, never inside a surrogate pair', () => {
    expect(cutText('aaaa\nbbbb cccc', 12)).toBe('aaaa\nbbbb');
    expect(cutText('a'.repeat(9) + '😀', 10)).toBe('a'.repeat(9));
  });
});

describe('the tool loop sends the model view', () => {
  const registry = new ToolRegistry();
  registry.register(ListOrdersCommand);
  registry.register(OrderSummaryCommand);
  const executor = new PersonaToolExecutor(registry, { logger: silentLogger });

  it('a 5 MB result reaches the model cut to the budget, with the note; the step keeps the whole value', async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ id: 'l1', name: 'list_orders', arguments: '{}' }] },
      { text: 'Done.', toolCalls: [] },
    ]);
    const loop = await runToolLoop({ model, executor, messages: [{ role: 'user', content: 'List my orders.' }] });
    expect(loop.status).toBe('completed');
    const sent = model.requests[1]!.messages.find((message) => message.role === 'tool')!;
    if (sent.role !== 'tool') throw new Error('no tool message');
    expect(sent.content.length).toBeLessThanOrEqual(DEFAULT_RESULT_BUDGET_CHARS + 2);
    const [json, note] = sent.content.split('\n\n[This result was cut');
    expect((JSON.parse(json!) as { total: number }).total).toBe(20_000);
    expect(note).toContain('tool-result budget of 80,000 characters');
    const value = loop.steps[0]!.calls[0]!.result;
    expect(value.ok && (value.value as { orders: unknown[] }).orders).toHaveLength(20_000);
  });

  it('toModelOutput: the next request carries the view, not the handler value', async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ id: 's1', name: 'order_summary', arguments: '{}' }] },
      { text: 'Done.', toolCalls: [] },
    ]);
    await runToolLoop({ model, executor, messages: [{ role: 'user', content: 'Summary?' }] });
    const sent = model.requests[1]!.messages.find((message) => message.role === 'tool');
    expect(sent).toMatchObject({ role: 'tool', content: 'Order o-1' });
  });
});
