import 'reflect-metadata';
import {
  createToolTelemetry,
  PersonaToolExecutor,
  silentLogger,
  ToolRegistry,
  type ContentPart,
} from '@toolwright/core';
import { createToolWorker, QueuedToolExecutor } from '@toolwright/queue';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { RedisServer } from '../support/redis-server';

jest.setTimeout(120_000);

const SEALING_KEY = 'test sealing passphrase';
let redis: RedisServer;

beforeAll(async () => {
  redis = await RedisServer.start();
});

afterAll(async () => {
  await redis.destroy();
});

/** About 5 MB of JSON. */
function report(): { rows: { id: number; text: string }[] } {
  return { rows: Array.from({ length: 20_000 }, (_, id) => ({ id, text: `row ${id}: ${'y'.repeat(240)}` })) };
}

function registry(): ToolRegistry {
  const tools = new ToolRegistry({ logger: silentLogger });
  tools.registerJsonSchemaTool(
    { name: 'big_report', parameters: { type: 'object', properties: { page: { type: 'integer' } } } },
    () => report(),
  );
  return tools;
}

describe('a queued call (BullMQ on a real redis-server): the result budget', () => {
  it('a 5 MB result comes back whole as the value, with the model view cut to the budget; the span says so', async () => {
    const queueName = `budget-${process.pid}`;
    const spans = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
    const producerRegistry = registry();
    const queued = new QueuedToolExecutor(
      new PersonaToolExecutor(producerRegistry, { logger: silentLogger }),
      producerRegistry,
      { connection: redis.connection, queueName, logger: silentLogger, sealingKey: SEALING_KEY },
    );
    const worker = createToolWorker(registry(), {
      connection: redis.connection,
      queueName,
      logger: silentLogger,
      sealingKey: SEALING_KEY,
      executorOptions: { telemetry: createToolTelemetry({ tracerProvider })! },
    });
    try {
      const result = await queued.execute({ id: 'big-1', name: 'big_report', arguments: {} }, { sessionId: 's' });
      if (!result.ok) throw new Error(result.error.message);
      expect((result.value as { rows: unknown[] }).rows).toHaveLength(20_000);
      const parts = result.modelOutput!.content as ContentPart[];
      const json = parts[0] as { type: 'json'; value: { rows: unknown[] } };
      const note = parts[1] as { type: 'text'; text: string };
      expect(JSON.stringify(json.value).length + note.text.length).toBeLessThanOrEqual(80_000);
      expect(json.value.rows.length).toBeLessThan(20_000);
      expect(note.text).toContain('call big_report again with its `page` parameter');
      expect(result.modelOutput!.truncation).toMatchObject({ budgetChars: 80_000, arraysShortened: 1 });
      const [span] = spans.getFinishedSpans();
      expect(span!.attributes).toMatchObject({
        'toolwright.tool': 'big_report',
        'toolwright.result.truncated': true,
        'toolwright.result.original_chars': JSON.stringify(result.value).length,
      });
    } finally {
      await worker.close();
      await queued.close();
      await tracerProvider.shutdown();
    }
  });
});
