import type { ToolDefinition } from '../types/definition';
import type { ToolErrorPayload, Transformation } from '../types/execution';
import type { SecurityEvent } from '../pipeline/normalizer';

/** A call that passed steps 1-6: what the handler would receive. */
export interface PreparedCall {
  readonly callId: string;
  readonly tool: string;
  readonly definition: ToolDefinition;
  /** The validated parameters: a DTO instance for class commands, a plain object for function handlers. */
  readonly params: Record<string, unknown>;
  /**
   * The validated values the DTO was built from (for a function handler, `params` itself): what travels as JSON (an
   * approval store, a queue job) and is prepared again on the other side, so that a class-transformer `@Transform` is
   * applied once, to the model's value, and never to its own output.
   */
  readonly input?: Record<string, unknown>;
  readonly transformations: readonly Transformation[];
  readonly securityEvents: readonly SecurityEvent[];
}

export type PrepareResult =
  | ({ readonly ok: true } & PreparedCall)
  | {
      readonly ok: false;
      readonly callId: string;
      readonly tool: string;
      readonly error: ToolErrorPayload;
      readonly transformations: readonly Transformation[];
    };
