import type { ContentPart, ModelOutput, ToolDefinition, ToolResult } from '@toolwright/core';
import { buildModelOutput, DEFAULT_RESULT_BUDGET_CHARS, modelContent } from '@toolwright/core/internal';

/** How many calls' views a tool set remembers (the most recent; a framework converts a result soon after the call). */
const REMEMBERED_VIEWS = 1_000;

/**
 * The model's view of recent calls, by call id: the executor built it (`ToolResult.modelOutput`), the framework asks for
 * it when it turns the call's output into the model's message. Bounded: the oldest is forgotten first.
 */
export class RecentModelViews {
  private readonly views = new Map<string, ModelOutput | undefined>();

  remember(result: Extract<ToolResult, { ok: true }>): void {
    if (this.views.size >= REMEMBERED_VIEWS) this.views.delete(this.views.keys().next().value as string);
    this.views.set(result.callId, result.modelOutput);
  }

  /**
   * The parts the model reads for a call's output: the view the executor built, or (for a call this process did not
   * run, such as a conversation restored from storage) the view built again from the output, with the tool's
   * `toModelOutput` and its budget (the default budget when the tool sets none).
   */
  partsFor(definition: ToolDefinition, callId: string, output: unknown): readonly ContentPart[] {
    const view = this.views.has(callId)
      ? this.views.get(callId)
      : buildModelOutput(
          definition,
          callId,
          output,
          definition.options.resultBudgetChars ?? DEFAULT_RESULT_BUDGET_CHARS,
        );
    return modelContent({
      callId,
      tool: definition.name,
      ok: true,
      value: output,
      ...(view !== undefined ? { modelOutput: view } : {}),
      transformations: [],
      durationMs: 0,
    });
  }
}

/** What the model reads of a successful result, as parts (its view when it has one, else the value). */
export function resultParts(result: Extract<ToolResult, { ok: true }>): readonly ContentPart[] {
  return modelContent(result);
}
