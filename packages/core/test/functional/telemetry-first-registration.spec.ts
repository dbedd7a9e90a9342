import 'reflect-metadata';
import { metrics, trace } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { PersonaToolExecutor, silentLogger, ToolRegistry } from '@toolwright/core';

/**
 * The default telemetry skips a call at once while `@opentelemetry/api` holds no global registry at all (nothing was
 * ever registered in the process). These tests start from that state (this file's own global) and register one real
 * SDK provider after the executor has run a call: its first call after the registration must be recorded.
 */

/** Where the installed `@opentelemetry/api` keeps its globals; removed between tests to start each from nothing. */
const REGISTRY = Symbol.for('opentelemetry.js.api.1');

function registry(): ToolRegistry {
  const registry = ToolRegistry.from([], { logger: silentLogger });
  registry.registerJsonSchemaTool(
    {
      name: 'pay',
      description: 'Pay an amount',
      parameters: { type: 'object', properties: { amount: { type: 'integer' } }, required: ['amount'] },
    },
    (params) => ({ paid: params['amount'] }),
  );
  registry.registerJsonSchemaTool(
    {
      name: 'pay_later',
      description: 'Pay an amount, asynchronously',
      parameters: { type: 'object', properties: { amount: { type: 'integer' } }, required: ['amount'] },
    },
    async (params) => ({ paid: params['amount'] }),
  );
  return registry;
}

afterEach(() => {
  trace.disable();
  metrics.disable();
  delete (globalThis as Record<symbol, unknown>)[REGISTRY];
});

describe('default telemetry: providers registered after the executor ran with none', () => {
  it.each(['pay', 'pay_later'])('a tracer provider alone (%s): the calls after it get spans', async (tool) => {
    expect((globalThis as Record<symbol, unknown>)[REGISTRY]).toBeUndefined();
    const spans = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
    const executor = new PersonaToolExecutor(registry(), { logger: silentLogger });
    expect((await executor.execute({ id: 'before', name: tool, arguments: '{"amount": 1}' })).ok).toBe(true);
    expect(trace.setGlobalTracerProvider(tracerProvider)).toBe(true);
    expect((await executor.execute({ id: 'after', name: tool, arguments: '{"amount": 2}' })).ok).toBe(true);
    expect(spans.getFinishedSpans().map((span) => [span.name, span.attributes['toolwright.call_id']])).toEqual([
      ['toolwright.tool_call', 'after'],
    ]);
    await tracerProvider.shutdown();
  });

  it('a meter provider alone: the calls after it are counted', async () => {
    expect((globalThis as Record<symbol, unknown>)[REGISTRY]).toBeUndefined();
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
    const meterProvider = new MeterProvider({ readers: [reader] });
    const executor = new PersonaToolExecutor(registry(), { logger: silentLogger });
    await executor.execute({ id: 'before', name: 'pay', arguments: '{"amount": 1}' });
    expect(metrics.setGlobalMeterProvider(meterProvider)).toBe(true);
    await executor.execute({ id: 'after', name: 'pay', arguments: '{"amount": "3"}' });
    await reader.forceFlush();
    const batches = exporter.getMetrics();
    const calls = batches[batches.length - 1]?.scopeMetrics
      .flatMap((scope) => scope.metrics)
      .find((metric) => metric.descriptor.name === 'toolwright.tool_calls');
    expect(calls?.dataPoints.map((point) => [point.attributes, point.value])).toEqual([
      [{ 'toolwright.tool': 'pay', 'toolwright.outcome': 'ok' }, 1],
    ]);
    await meterProvider.shutdown();
  });
});
