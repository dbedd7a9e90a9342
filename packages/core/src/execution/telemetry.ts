import type { ToolCallError } from '../errors/tool-call-error';
import type { ApprovalOutcome, ExecutionContext, ToolResult } from '../types/execution';

/**
 * OpenTelemetry for tool calls and tool-loop turns, through the optional peer `@opentelemetry/api` (loaded at run
 * time; these declarations never import it). Spans: `toolwright.tool_call` per call, `toolwright.tool_loop.turn` per
 * model turn (the parent of its calls' spans when a context manager is registered, as every OTel Node SDK setup does).
 * Metrics: `toolwright.transformations` (tool, rule, model), `toolwright.security_events` (tool, model),
 * `toolwright.tool_calls` (tool, outcome) and the `toolwright.tool_call.duration` histogram (ms).
 * With no tracer provider / meter provider registered, a call costs two identity checks and builds nothing.
 */

/** The parts of `@opentelemetry/api` this module uses (structural, so no declaration imports the package). */
export type TelemetryAttributeValue =
  | string
  | number
  | boolean
  | Array<null | undefined | string>
  | Array<null | undefined | number>
  | Array<null | undefined | boolean>;
export type TelemetryAttributes = Record<string, TelemetryAttributeValue | undefined>;
export interface SpanLike {
  setAttribute(key: string, value: TelemetryAttributeValue): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  addEvent(name: string, attributes?: TelemetryAttributes): unknown;
  end(endTime?: number): void;
}
export interface TracerLike {
  startSpan(
    name: string,
    options?: { startTime?: number; attributes?: TelemetryAttributes },
    context?: unknown,
  ): SpanLike;
}
export interface TracerProviderLike {
  getTracer(name: string, version?: string): TracerLike;
  /** The global provider is a proxy: this is what it delegates to (the no-op provider until one is registered). */
  getDelegate?(): TracerProviderLike;
}
export interface CounterLike {
  add(value: number, attributes?: TelemetryAttributes): void;
}
export interface HistogramLike {
  record(value: number, attributes?: TelemetryAttributes): void;
}
export interface MeterLike {
  createCounter(name: string, options?: { description?: string; unit?: string }): CounterLike;
  createHistogram(name: string, options?: { description?: string; unit?: string }): HistogramLike;
}
export interface MeterProviderLike {
  getMeter(name: string, version?: string): MeterLike;
}
export interface OpenTelemetryApiLike {
  trace: { getTracerProvider(): TracerProviderLike; setSpan(context: unknown, span: SpanLike): unknown };
  metrics: { getMeterProvider(): MeterProviderLike };
  context: { active(): unknown; with<T>(context: unknown, fn: () => T): T };
  ProxyTracerProvider: new () => { getDelegate(): TracerProviderLike };
  createNoopMeter(): MeterLike;
  SpanStatusCode: { OK: number; ERROR: number };
}

export interface ToolTelemetryOptions {
  /** The provider attribute (`gen_ai.system`, e.g. `openai`) of every span and metric this executor records. */
  readonly provider?: string;
  /** A tracer provider to use instead of the global one (tests, several pipelines in one process). */
  readonly tracerProvider?: TracerProviderLike;
  /** A meter provider to use instead of the global one. */
  readonly meterProvider?: MeterProviderLike;
}

/** What the tool loop tells the turn span about one call. */
export interface TurnCallRecord {
  readonly tool: string;
  readonly callId: string;
  readonly outcome: string;
  readonly attempt?: number;
}

const SCOPE = '@toolwright/core';
/**
 * Where `@opentelemetry/api` 1.x keeps its global providers (`Symbol.for('opentelemetry.js.api.<major>')`, shared by
 * every installed copy of the same major version): undefined until something is registered. The telemetry tests
 * register the real SDK's providers after the executor is built.
 */
const OTEL_GLOBAL_REGISTRY = Symbol.for('opentelemetry.js.api.1');
const SPOOF_RULE = 'dropped-context-field';

interface Instruments {
  readonly transformations: CounterLike;
  readonly securityEvents: CounterLike;
  readonly calls: CounterLike;
  readonly duration: HistogramLike;
}

/** What a telemetry reads from `@opentelemetry/api`, once (the package exports `trace` and `metrics` through getters). */
class ApiView {
  readonly noopTracerProvider: TracerProviderLike;
  readonly noopMeterClass: unknown;
  readonly trace: OpenTelemetryApiLike['trace'];
  readonly metrics: OpenTelemetryApiLike['metrics'];

  constructor(readonly api: OpenTelemetryApiLike) {
    this.noopTracerProvider = new api.ProxyTracerProvider().getDelegate();
    this.noopMeterClass = api.createNoopMeter().constructor;
    this.trace = api.trace;
    this.metrics = api.metrics;
  }
}

/** Spans and metrics for tool calls; build it with `createToolTelemetry()`. */
export class ToolTelemetry {
  private tracerSource?: TracerProviderLike;
  private tracer?: TracerLike;
  private meterSource?: MeterProviderLike;
  private instruments?: Instruments;
  /** Read from the api on first use: the default telemetry loads the package only when something registered with it. */
  private view?: ApiView;
  /**
   * Whether both providers are the global ones of the installed `@opentelemetry/api` (1.x, the peer range): then a
   * process where nothing was ever registered with it (no global registry object) has no provider to record to.
   */
  private readonly globalProvidersOnly: boolean;

  /**
   * `api` undefined: the installed `@opentelemetry/api`, required on the first call or turn after something (a tracer,
   * meter or context manager, a diag logger) registered with it; until then a call costs one property read.
   */
  constructor(
    private readonly api: OpenTelemetryApiLike | undefined,
    private readonly options: ToolTelemetryOptions = {},
  ) {
    this.globalProvidersOnly =
      options.tracerProvider === undefined &&
      options.meterProvider === undefined &&
      (api === undefined || api === loadApi());
  }

  /** The api's view; only after `mayRecord()` said true (which loads the api of the default telemetry). */
  private apiView(): ApiView {
    this.view ??= new ApiView(this.api ?? loadApi()!);
    return this.view;
  }

  /** False when nothing can be recorded: only the global providers are used and nothing registered with the api. */
  private mayRecord(): boolean {
    if (this.globalProvidersOnly && (globalThis as Record<symbol, unknown>)[OTEL_GLOBAL_REGISTRY] === undefined)
      return false;
    return this.api !== undefined || loadApi() !== undefined;
  }

  /** The tracer, or undefined when no tracer provider is registered (the global proxy still delegates to the no-op). */
  private activeTracer(): TracerLike | undefined {
    const view = this.apiView();
    const provider = this.options.tracerProvider ?? view.trace.getTracerProvider();
    const effective = this.options.tracerProvider ?? provider.getDelegate?.() ?? provider;
    if (effective === view.noopTracerProvider) return undefined;
    if (effective !== this.tracerSource) {
      this.tracerSource = effective;
      this.tracer = provider.getTracer(SCOPE);
    }
    return this.tracer;
  }

  private activeInstruments(): Instruments | undefined {
    const view = this.apiView();
    const provider = this.options.meterProvider ?? view.metrics.getMeterProvider();
    if (provider === this.meterSource) return this.instruments;
    this.meterSource = provider;
    const meter = provider.getMeter(SCOPE);
    this.instruments =
      meter.constructor === view.noopMeterClass
        ? undefined
        : {
            transformations: meter.createCounter('toolwright.transformations', {
              description: 'Repairs toolwright made to model-sent arguments, per tool, rule and model',
            }),
            securityEvents: meter.createCounter('toolwright.security_events', {
              description: 'Attempts by the model to set trusted context (values dropped), per tool and model',
            }),
            calls: meter.createCounter('toolwright.tool_calls', { description: 'Tool calls, per tool and outcome' }),
            duration: meter.createHistogram('toolwright.tool_call.duration', {
              description: 'Tool call duration, pipeline and handler',
              unit: 'ms',
            }),
          };
    return this.instruments;
  }

  /** Records one finished call: a span (started at the call's start) and the metrics. */
  recordCall(result: ToolResult, error: ToolCallError | undefined, context: ExecutionContext): void {
    // One property read instead of both providers' lookups while `@opentelemetry/api` holds no global at all (every
    // registration, a tracer, meter or context manager or a diag logger, creates its registry object first).
    if (!this.mayRecord()) return;
    const tracer = this.activeTracer();
    const instruments = this.activeInstruments();
    if (tracer === undefined && instruments === undefined) return;
    const outcome = error ? error.code : 'ok';
    const rules = result.transformations.map((transformation) => transformation.rule);
    const spoofAttempts = rules.filter((rule) => rule === SPOOF_RULE).length;
    const base: TelemetryAttributes = { 'toolwright.tool': result.tool };
    if (context.model !== undefined) base['gen_ai.request.model'] = context.model;
    if (this.options.provider !== undefined) base['gen_ai.system'] = this.options.provider;
    if (tracer !== undefined) {
      const { api } = this.apiView();
      const end = performance.timeOrigin + performance.now();
      const span = tracer.startSpan(
        'toolwright.tool_call',
        {
          startTime: end - result.durationMs,
          attributes: {
            ...base,
            'toolwright.call_id': result.callId,
            'toolwright.outcome': outcome,
            'toolwright.duration_ms': result.durationMs,
            'toolwright.transformation_rules': rules,
            'toolwright.transformation_count': rules.length,
            'toolwright.spoof_attempts': spoofAttempts,
            ...(error ? { 'toolwright.error_code': error.code, 'error.type': error.code } : {}),
            // Trusted context only (on a @toolwright/queue worker, the BullMQ job's id); one value per call, so on the
            // span and never on a metric (a per-job metric attribute would grow without bound).
            ...(context.jobId !== undefined ? { 'toolwright.job_id': context.jobId } : {}),
            // A result cut to the budget (docs/results.md): what the model received of how much.
            ...(result.ok && result.modelOutput?.truncation !== undefined
              ? {
                  'toolwright.result.truncated': true,
                  'toolwright.result.original_chars': result.modelOutput.truncation.originalChars,
                  'toolwright.result.sent_chars': result.modelOutput.truncation.sentChars,
                }
              : {}),
            // Who approved the call and when (a call run after resolveApproval; docs/approval.md).
            ...(context.approval !== undefined ? approvalAttributes(context.approval) : {}),
          },
        },
        api.context.active(),
      );
      span.setStatus(error ? { code: api.SpanStatusCode.ERROR, message: error.code } : { code: api.SpanStatusCode.OK });
      span.end(end);
    }
    if (instruments !== undefined) {
      instruments.calls.add(1, { ...base, 'toolwright.outcome': outcome });
      instruments.duration.record(result.durationMs, { ...base, 'toolwright.outcome': outcome });
      for (const rule of rules) instruments.transformations.add(1, { ...base, 'toolwright.rule': rule });
      if (spoofAttempts > 0) instruments.securityEvents.add(spoofAttempts, base);
    }
  }

  /** Starts a `toolwright.tool_loop.turn` span, or returns undefined when no tracer is registered. */
  startTurn(index: number, model: string): TurnSpan | undefined {
    if (!this.mayRecord()) return undefined;
    const tracer = this.activeTracer();
    if (tracer === undefined) return undefined;
    const attributes: TelemetryAttributes = { 'toolwright.turn': index + 1, 'gen_ai.request.model': model };
    if (this.options.provider !== undefined) attributes['gen_ai.system'] = this.options.provider;
    const { api } = this.apiView();
    return new TurnSpan(api, tracer.startSpan('toolwright.tool_loop.turn', { attributes }, api.context.active()));
  }
}

/** One tool-loop turn's span: the active span while the model and the calls run. */
export class TurnSpan {
  private readonly context: unknown;

  constructor(
    private readonly api: OpenTelemetryApiLike,
    private readonly span: SpanLike,
  ) {
    this.context = api.trace.setSpan(api.context.active(), span);
  }

  /** Runs `work` with this span active (the calls' spans become its children). */
  run<T>(work: () => Promise<T>): Promise<T> {
    return this.api.context.with(this.context, work);
  }

  /** Ends the span with each call's outcome and attempt (an attempt above 1 is a retry). */
  end(calls: readonly TurnCallRecord[]): void {
    let retries = 0;
    for (const record of calls) {
      if ((record.attempt ?? 1) > 1) retries++;
      this.span.addEvent('toolwright.tool_call', {
        'toolwright.tool': record.tool,
        'toolwright.call_id': record.callId,
        'toolwright.outcome': record.outcome,
        ...(record.attempt !== undefined ? { 'toolwright.attempt': record.attempt } : {}),
      });
    }
    this.span.setAttribute('toolwright.tool_calls', calls.length);
    this.span.setAttribute('toolwright.retries', retries);
    this.span.setStatus({ code: this.api.SpanStatusCode.OK });
    this.span.end();
  }

  /** Ends the span as failed (the model or the executor threw). */
  fail(error: unknown): void {
    this.span.setStatus({
      code: this.api.SpanStatusCode.ERROR,
      message: error instanceof Error ? error.message : String(error),
    });
    this.span.end();
  }
}

let loaded: OpenTelemetryApiLike | null | undefined;

/** `@opentelemetry/api` if the application installed it, else undefined (loaded once). */
function loadApi(): OpenTelemetryApiLike | undefined {
  if (loaded === undefined) {
    try {
      loaded = require('@opentelemetry/api') as OpenTelemetryApiLike;
    } catch {
      loaded = null;
    }
  }
  return loaded ?? undefined;
}

/**
 * Telemetry over `@opentelemetry/api` (the global tracer and meter providers unless given), or undefined when the
 * package is not installed. Executors and tool loops use `createToolTelemetry()` by default.
 */
export function createToolTelemetry(options: ToolTelemetryOptions = {}): ToolTelemetry | undefined {
  const api = loadApi();
  return api === undefined ? undefined : new ToolTelemetry(api, options);
}

let shared: ToolTelemetry | null | undefined;

/** Whether `@opentelemetry/api` is installed, found without loading it. */
function apiInstalled(): boolean {
  if (loaded !== undefined) return loaded !== null;
  try {
    require.resolve('@opentelemetry/api');
    return true;
  } catch {
    return false;
  }
}

/**
 * The default telemetry (global providers), one per process. The package is only found here, not loaded: it is
 * required when something registers with it (docs/decisions/0030-lazy-startup.md: loading it cost more CPU than
 * building an executor).
 */
export function defaultToolTelemetry(): ToolTelemetry | undefined {
  if (shared === undefined) shared = apiInstalled() ? new ToolTelemetry(undefined) : null;
  return shared ?? undefined;
}

/** A decided approval's span attributes. */
function approvalAttributes(approval: ApprovalOutcome): TelemetryAttributes {
  return {
    'toolwright.approval.id': approval.id,
    'toolwright.approval.approved': approval.approved,
    'toolwright.approval.decided_at': approval.decidedAt,
    ...(approval.by !== undefined ? { 'toolwright.approval.by': approval.by } : {}),
  };
}
