import type {
  ExecutionContext,
  PersonaToolExecutor,
  ToolCall,
  ToolErrorPayload,
  ToolResult,
  Transformation,
} from '@toolwright/core';
import type { ProviderId, ToolRegistryLike } from '@toolwright/providers';
import { toJsonSafe } from '../output';
import { locateTransformations, type TransformationTarget } from './locate';
import { PROVIDER_CALLS, toolSetFor } from './providers';

export interface LocatedTransformation {
  readonly path: string;
  readonly rule: string;
  readonly from?: unknown;
  readonly to?: unknown;
  readonly target: TransformationTarget;
}

/** One call through the executor, as `toolwright try`, `replay` and the inspector show it. */
export interface CallReport {
  /** `prepare`: steps 1-6, the handler not called; `run`: the whole pipeline. */
  readonly mode: 'prepare' | 'run';
  readonly shape: ProviderId | 'arguments';
  /** The tool name as called, and as resolved. */
  readonly calledName: string;
  readonly tool: string;
  /** The arguments as the model sent them: its text, or the object rendered as JSON. */
  readonly argumentsText: string;
  readonly ok: boolean;
  readonly transformations: readonly LocatedTransformation[];
  /** `prepare`, ok: what the handler would receive. */
  readonly params?: unknown;
  /** `run`, ok: what the handler returned. */
  readonly value?: unknown;
  readonly error?: ToolErrorPayload;
  /** The text the model gets back: the error message, or the result as the provider would send it. */
  readonly modelMessage?: unknown;
  readonly durationMs?: number;
}

export function argumentsTextOf(call: ToolCall): string {
  if (typeof call.arguments === 'string') return call.arguments;
  if (call.arguments === undefined || call.arguments === null) return '';
  return JSON.stringify(call.arguments, null, 2);
}

function located(text: string, transformations: readonly Transformation[]): LocatedTransformation[] {
  const targets = locateTransformations(text, transformations);
  return transformations.map((transformation, index) => ({
    path: transformation.path,
    rule: transformation.rule,
    ...('from' in transformation ? { from: toJsonSafe(transformation.from) } : {}),
    ...('to' in transformation ? { to: toJsonSafe(transformation.to) } : {}),
    target: targets[index] ?? { kind: 'text' },
  }));
}

/** Runs a call through the application's executor (`prepare` or `execute`) and reports every step's outcome. */
export async function reportCall(
  executor: PersonaToolExecutor,
  call: ToolCall,
  options: {
    context?: ExecutionContext;
    run?: boolean;
    shape?: ProviderId | 'arguments';
    registry?: ToolRegistryLike;
  } = {},
): Promise<CallReport> {
  const text = argumentsTextOf(call);
  const shape = options.shape ?? 'arguments';
  const base = { shape, calledName: call.name, argumentsText: text };
  if (!options.run) {
    const prepared = await executor.prepare(call, options.context ?? {});
    if (prepared.ok) {
      return {
        ...base,
        mode: 'prepare',
        tool: prepared.tool,
        ok: true,
        transformations: located(text, prepared.transformations),
        params: toJsonSafe(prepared.params),
      };
    }
    const result: ToolResult = {
      callId: prepared.callId,
      tool: prepared.tool,
      ok: false,
      error: prepared.error,
      transformations: prepared.transformations,
      durationMs: 0,
    };
    return {
      ...base,
      mode: 'prepare',
      tool: prepared.tool,
      ok: false,
      transformations: located(text, prepared.transformations),
      error: prepared.error,
      modelMessage: modelMessage(result, shape, options.registry),
    };
  }
  const result = await executor.execute(call, options.context ?? {});
  return {
    ...base,
    mode: 'run',
    tool: result.tool,
    ok: result.ok,
    transformations: located(text, result.transformations),
    ...(result.ok ? { value: toJsonSafe(result.value) } : { error: result.error }),
    modelMessage: modelMessage(result, shape, options.registry),
    durationMs: result.durationMs,
  };
}

/** What goes back to the model: the provider's tool-result message for a provider shape, the message text otherwise. */
function modelMessage(
  result: ToolResult,
  shape: ProviderId | 'arguments',
  registry: ToolRegistryLike | undefined,
): unknown {
  if (shape === 'arguments' || registry === undefined)
    return result.ok ? toJsonSafe(result.value) : result.error.message;
  return toJsonSafe(PROVIDER_CALLS[shape].resultMessage(result, toolSetFor(registry, shape)));
}

/** The report's transformations in core's shape (for `TransformationStats.record`). */
export function transformationsOf(report: CallReport): Transformation[] {
  return report.transformations.map((transformation) => ({
    path: transformation.path,
    rule: transformation.rule,
    from: transformation.from,
    to: transformation.to,
  }));
}
