import 'reflect-metadata';
import { InMemorySpanExporter, SimpleSpanProcessor, BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { IsEmail } from 'class-validator';
import { container as rootContainer } from 'tsyringe';
import {
  Command,
  createToolTelemetry,
  PersonaToolExecutor,
  silentLogger,
  ToolParam,
  ToolRegistry,
  TransformationStats,
  type Logger,
  type ToolCall,
  type ToolRegistryChange,
  type ToolResult,
} from '@toolwright/core';
import { DEFAULT_LIMITS } from '@toolwright/core/pipeline/limits';
import { WARM_UP_CALLS, WARM_UP_TOOL, warmUpExecutor } from '@toolwright/core/execution/warm-up';

/**
 * The warm-up of the shared call path (`execution/warm-up.ts`, ADR 0030's amendment of 2026-11-27): what
 * `executor.compileAll()` and `compile: 'registration'` run besides compiling the plans. It must be invisible: no
 * handler of the application runs, nothing is logged, counted, traced or registered, and the calls after it answer
 * exactly what they would have answered without it.
 */

const handled: string[] = [];

class NoteParams {
  @ToolParam({ description: 'The note', minLength: 1 }) text!: string;
  @ToolParam({ type: 'int', description: 'How urgent', min: 1, max: 5, required: false }) urgency?: number;
  @ToolParam({ description: 'Who to tell', required: false }) @IsEmail() notify?: string;
}

@Command({ name: 'note', description: 'Takes a note', params: NoteParams })
class NoteCommand {
  execute(params: NoteParams) {
    handled.push(`note:${params.text}`);
    return { text: params.text, urgency: params.urgency ?? 0 };
  }
}

function appRegistry(): ToolRegistry {
  const registry = new ToolRegistry({ logger: silentLogger });
  registry.register(NoteCommand);
  registry.registerJsonSchemaTool(
    {
      name: 'double',
      description: 'Doubles an amount',
      parameters: { type: 'object', properties: { amount: { type: 'integer', minimum: 0 } }, required: ['amount'] },
    },
    (params: { amount: number }) => {
      handled.push(`double:${params.amount}`);
      return params.amount * 2;
    },
  );
  return registry;
}

/** A logger that keeps every event of every level. */
function recordingLogger(): { logger: Logger; records: unknown[] } {
  const records: unknown[] = [];
  const record =
    (level: string) =>
    (message: string, details?: Record<string, unknown>): void => {
      records.push({ level, message, details });
    };
  return {
    records,
    logger: {
      debug: record('debug'),
      info: record('info'),
      warn: record('warn'),
      error: record('error'),
      isLevelEnabled: () => true,
    },
  };
}

/** A valid call, one needing repairs, a refused one, an unknown tool, a bad e-mail (a developer rule). */
const appCalls: ToolCall[] = [
  { id: 'a1', name: 'note', arguments: '{"text":"buy milk","urgency":2,"notify":"bob@example.com"}' },
  { id: 'a2', name: 'note', arguments: '{"Text":"call Bob","urgency":"3"}' },
  { id: 'a3', name: 'note', arguments: '{"text":"","urgency":9}' },
  { id: 'a4', name: 'notes_plz', arguments: '{}' },
  { id: 'a5', name: 'note', arguments: '{"text":"x","notify":"not an address"}' },
  { id: 'a6', name: 'double', arguments: '{"amount":"21"}' },
  { id: 'a7', name: 'double', arguments: '{"amount":-1}' },
];

/** A result as JSON without its duration (the one field that differs from run to run). */
const text = (result: ToolResult) => JSON.stringify({ ...result, durationMs: 0 });

/** An executor of the application's tools with every observer recording: logger, stats, spans, registry events. */
function observedApp(options: { compile?: 'registration' } = {}) {
  const registry = appRegistry();
  const { logger, records } = recordingLogger();
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  const telemetry = createToolTelemetry({ tracerProvider })!;
  const stats = new TransformationStats();
  const changes: ToolRegistryChange[] = [];
  registry.onChange((change) => changes.push(change));
  const executor = new PersonaToolExecutor(registry, { logger, stats, telemetry, ...options });
  return { registry, executor, records, spans, stats, changes };
}

describe('the warm-up of the call path (compileAll, issue 26)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('runs its synthetic calls through a private executor, once per process, and nothing of the application', () => {
    const execute = jest.spyOn(PersonaToolExecutor.prototype, 'execute');
    // tsyringe's root container: the synthetic command is built by the default resolver over a child of it, which may
    // read the root's registrations but never write or resolve through it.
    const rootWrites = (
      [
        'register',
        'registerInstance',
        'registerSingleton',
        'registerType',
        'resolve',
        'resolveAll',
        'reset',
        'clearInstances',
        'dispose',
      ] as const
    ).map((method) => jest.spyOn(rootContainer, method));
    const app = observedApp();
    const names = app.registry.list().map((tool) => tool.name);
    handled.length = 0;

    expect(app.executor.compileAll()).toBe(2);

    // The warm-up's calls ran (on another executor than the application's), synchronously, inside compileAll.
    expect(execute.mock.calls.map(([call]) => call)).toEqual(WARM_UP_CALLS);
    expect(execute.mock.contexts.every((executor) => executor !== app.executor)).toBe(true);
    // Invisible: no handler of the application, no log record, no count, no span, no registry event, no new tool.
    expect(handled).toEqual([]);
    expect(app.records).toEqual([]);
    expect(app.stats.snapshot()).toEqual([]);
    expect(app.stats.securityEvents).toBe(0);
    expect(app.spans.getFinishedSpans()).toEqual([]);
    expect(app.changes).toEqual([]);
    expect(app.registry.list().map((tool) => tool.name)).toEqual(names);
    expect(app.registry.get(WARM_UP_TOOL)).toBeUndefined();
    expect(app.executor.tools().some((tool) => tool.name === WARM_UP_TOOL)).toBe(false);
    for (const write of rootWrites) expect(write).not.toHaveBeenCalled();

    // Once per process: a second compileAll, another executor's compile: 'registration', run no synthetic call.
    execute.mockClear();
    app.executor.compileAll();
    observedApp({ compile: 'registration' });
    expect(execute).not.toHaveBeenCalled();
  });

  it('leaves every later call as it would have been: results, log records, counts and spans byte for byte', async () => {
    const warmed = observedApp({ compile: 'registration' });
    const cold = observedApp();
    for (const call of appCalls)
      expect(text(await warmed.executor.execute(call))).toBe(text(await cold.executor.execute(call)));
    const withoutDurations = (records: unknown[]) => JSON.stringify(records).replace(/"durationMs":[0-9.e-]+/g, '');
    expect(withoutDurations(warmed.records)).toBe(withoutDurations(cold.records));
    expect(warmed.stats.snapshot()).toEqual(cold.stats.snapshot());
    expect(warmed.stats.snapshot().length).toBeGreaterThan(0);
    const spanAttributes = (app: typeof warmed) =>
      app.spans.getFinishedSpans().map((span) => ({ ...span.attributes, 'toolwright.duration_ms': 0 }));
    expect(spanAttributes(warmed)).toEqual(spanAttributes(cold));
    expect(spanAttributes(warmed)).toHaveLength(appCalls.length);
  });

  it('its calls take the paths it means to warm: the fast path, repairs, an object, and a refusal with its message', async () => {
    const executor = warmUpExecutor(
      {
        policy: 'safe',
        limits: DEFAULT_LIMITS,
        validation: 'compiled',
        timeoutMs: 30_000,
        slowCallMs: 1_000,
        canonicalFastPath: true,
      },
      PersonaToolExecutor,
    );
    const [canonical, repaired, object, refused] = await Promise.all(
      WARM_UP_CALLS.map((call) => executor.execute(call)),
    );
    expect(canonical).toMatchObject({ ok: true, value: 'warm', transformations: [] });
    expect(repaired!.ok && repaired!.transformations.map((change) => change.rule)).toEqual([
      'key-case',
      'string-to-integer',
      'string-to-number',
      'string-to-boolean',
      'json-string-to-array',
      'string-to-integer',
    ]);
    expect(object).toMatchObject({ ok: true, value: 'warm' });
    expect(refused!.ok).toBe(false);
    expect(!refused!.ok && refused!.error.code).toBe('INVALID_ARGUMENTS');
    expect(!refused!.ok && refused!.error.message).toContain('"count" must be an integer >= 1 and <= 1000');
  });
});
