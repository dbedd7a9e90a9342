import 'reflect-metadata';
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  Command,
  createToolTelemetry,
  FromContext,
  PersonaToolExecutor,
  runToolLoop,
  ScriptedChatModel,
  silentLogger,
  ToolParam,
  ToolRegistry,
} from '@toolwright/core';

class PayParams {
  @ToolParam({ description: 'Amount in cents', type: 'int' }) amount!: number;
  @FromContext('session_id') sessionId?: string;
}
@Command({ name: 'pay', description: 'Pay an amount', params: PayParams, retries: 2 })
class PayCommand {
  execute(params: PayParams) {
    return { paid: params.amount };
  }
}
const registry = () => ToolRegistry.from([PayCommand], { logger: silentLogger });

function inMemory() {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  /** Every data point of the metric `name`: its attributes and value. */
  const points = async (name: string) => {
    await reader.forceFlush();
    const batches = metricExporter.getMetrics();
    const last = batches[batches.length - 1];
    const metric = last?.scopeMetrics
      .flatMap((scope) => scope.metrics)
      .find((candidate) => candidate.descriptor.name === name);
    return (metric?.dataPoints ?? []).map((point) => ({ attributes: point.attributes, value: point.value }));
  };
  return {
    spans,
    tracerProvider,
    meterProvider,
    points,
    shutdown: async () => {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

describe('OpenTelemetry: explicit providers', () => {
  it('records a span per call with tool, call id, outcome, error code, duration, rules and spoof attempts', async () => {
    const otel = inMemory();
    const telemetry = createToolTelemetry({
      tracerProvider: otel.tracerProvider,
      meterProvider: otel.meterProvider,
      provider: 'openai',
    })!;
    const executor = new PersonaToolExecutor(registry(), { logger: silentLogger, telemetry });
    await executor.execute(
      { id: 'c1', name: 'pay', arguments: '{"amount": "250", "session_id": "forged"}' },
      { sessionId: 's1', model: 'gpt-x' },
    );
    await executor.execute({ id: 'c2', name: 'pay', arguments: '{"amount": "lots"}' }, { model: 'gpt-x' });

    const [ok, refused] = otel.spans.getFinishedSpans();
    expect(ok!.name).toBe('toolwright.tool_call');
    expect(ok!.attributes).toEqual({
      'toolwright.tool': 'pay',
      'gen_ai.request.model': 'gpt-x',
      'gen_ai.system': 'openai',
      'toolwright.call_id': 'c1',
      'toolwright.outcome': 'ok',
      'toolwright.duration_ms': expect.any(Number),
      'toolwright.transformation_rules': ['string-to-integer', 'dropped-context-field'],
      'toolwright.transformation_count': 2,
      'toolwright.spoof_attempts': 1,
    });
    expect(ok!.status.code).toBe(1); // OK
    expect(refused!.attributes).toMatchObject({
      'toolwright.call_id': 'c2',
      'toolwright.outcome': 'INVALID_ARGUMENTS',
      'toolwright.error_code': 'INVALID_ARGUMENTS',
      'toolwright.spoof_attempts': 0,
    });
    expect(refused!.status).toEqual({ code: 2, message: 'INVALID_ARGUMENTS' }); // ERROR
    const durationMs = (ok!.duration[0] * 1e9 + ok!.duration[1]) / 1e6;
    expect(durationMs).toBeCloseTo(ok!.attributes['toolwright.duration_ms'] as number, 0);

    expect(await otel.points('toolwright.transformations')).toEqual(
      expect.arrayContaining([
        {
          attributes: {
            'toolwright.tool': 'pay',
            'gen_ai.request.model': 'gpt-x',
            'gen_ai.system': 'openai',
            'toolwright.rule': 'string-to-integer',
          },
          value: 1,
        },
        {
          attributes: {
            'toolwright.tool': 'pay',
            'gen_ai.request.model': 'gpt-x',
            'gen_ai.system': 'openai',
            'toolwright.rule': 'dropped-context-field',
          },
          value: 1,
        },
      ]),
    );
    expect(await otel.points('toolwright.security_events')).toEqual([
      {
        attributes: { 'toolwright.tool': 'pay', 'gen_ai.request.model': 'gpt-x', 'gen_ai.system': 'openai' },
        value: 1,
      },
    ]);
    expect(
      (await otel.points('toolwright.tool_calls')).map((point) => [
        point.attributes['toolwright.outcome'],
        point.value,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['ok', 1],
        ['INVALID_ARGUMENTS', 1],
      ]),
    );
    expect(await otel.points('toolwright.tool_call.duration')).toHaveLength(2);
    await otel.shutdown();
  });

  it('telemetry: false records nothing', async () => {
    const otel = inMemory();
    trace.setGlobalTracerProvider(otel.tracerProvider);
    try {
      await new PersonaToolExecutor(registry(), { logger: silentLogger, telemetry: false }).execute({
        id: 'c1',
        name: 'pay',
        arguments: '{"amount": 1}',
      });
      expect(otel.spans.getFinishedSpans()).toEqual([]);
    } finally {
      trace.disable();
      await otel.shutdown();
    }
  });
});

describe('OpenTelemetry: the global providers (the default)', () => {
  const contextManager = new AsyncLocalStorageContextManager();
  let otel: ReturnType<typeof inMemory>;
  beforeAll(() => {
    otel = inMemory();
    context.setGlobalContextManager(contextManager.enable());
  });
  afterAll(async () => {
    trace.disable();
    metrics.disable();
    context.disable();
    await otel.shutdown();
  });

  it('records nothing while no provider is registered, then picks up providers registered later', async () => {
    const executor = new PersonaToolExecutor(registry(), { logger: silentLogger });
    await executor.execute({ id: 'before', name: 'pay', arguments: '{"amount": 1}' });
    trace.setGlobalTracerProvider(otel.tracerProvider);
    metrics.setGlobalMeterProvider(otel.meterProvider);
    await executor.execute({ id: 'after', name: 'pay', arguments: '{"amount": 1}' });
    expect(otel.spans.getFinishedSpans().map((span) => span.attributes['toolwright.call_id'])).toEqual(['after']);
    expect(await otel.points('toolwright.tool_calls')).toEqual([
      { attributes: { 'toolwright.tool': 'pay', 'toolwright.outcome': 'ok' }, value: 1 },
    ]);
    otel.spans.reset();
  });

  it('a tool loop records a span per turn, parent of its calls, with retries counted', async () => {
    const model = new ScriptedChatModel(
      [
        { toolCalls: [{ id: 'a1', name: 'pay', arguments: '{"amount": "lots"}' }] },
        { toolCalls: [{ id: 'a2', name: 'pay', arguments: '{"amount": 5}' }] },
        { text: 'paid', toolCalls: [] },
      ],
      'scripted-model',
    );
    const loop = await runToolLoop({
      model,
      registry: registry(),
      messages: [{ role: 'user', content: 'pay 5' }],
      logger: silentLogger,
    });
    expect(loop.status).toBe('completed');
    const spans = otel.spans.getFinishedSpans();
    const turns = spans.filter((span) => span.name === 'toolwright.tool_loop.turn');
    const calls = spans.filter((span) => span.name === 'toolwright.tool_call');
    expect(turns.map((span) => span.attributes)).toEqual([
      {
        'toolwright.turn': 1,
        'gen_ai.request.model': 'scripted-model',
        'toolwright.tool_calls': 1,
        'toolwright.retries': 0,
      },
      {
        'toolwright.turn': 2,
        'gen_ai.request.model': 'scripted-model',
        'toolwright.tool_calls': 1,
        'toolwright.retries': 1,
      },
      {
        'toolwright.turn': 3,
        'gen_ai.request.model': 'scripted-model',
        'toolwright.tool_calls': 0,
        'toolwright.retries': 0,
      },
    ]);
    expect(turns[0]!.events.map((event) => event.attributes)).toEqual([
      {
        'toolwright.tool': 'pay',
        'toolwright.call_id': 'a1',
        'toolwright.outcome': 'INVALID_ARGUMENTS',
        'toolwright.attempt': 1,
      },
    ]);
    expect(turns[1]!.events.map((event) => event.attributes)).toEqual([
      { 'toolwright.tool': 'pay', 'toolwright.call_id': 'a2', 'toolwright.outcome': 'ok', 'toolwright.attempt': 2 },
    ]);
    expect(calls.map((span) => [span.attributes['toolwright.call_id'], span.parentSpanContext?.spanId])).toEqual([
      ['a1', turns[0]!.spanContext().spanId],
      ['a2', turns[1]!.spanContext().spanId],
    ]);
  });
});
