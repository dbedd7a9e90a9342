import type { Transformation } from '../types/execution';

export interface TransformationCount {
  readonly tool: string;
  readonly rule: string;
  /** The model that sent the call, when the context named it. */
  readonly model?: string;
  readonly count: number;
}

/**
 * The feedback loop of the repairs: how often each rule fired, per tool (and per model when the context names it),
 * and how often a model tried to set trusted context. The app reads it to see which models send which malformations.
 */
export class TransformationStats {
  private readonly counts = new Map<string, { tool: string; rule: string; model?: string; count: number }>();
  private securityEventCount = 0;

  record(tool: string, transformations: readonly Transformation[], model?: string): void {
    for (const transformation of transformations) {
      const key = `${tool}\u0000${transformation.rule}\u0000${model ?? ''}`;
      const entry = this.counts.get(key);
      if (entry) entry.count++;
      else this.counts.set(key, { tool, rule: transformation.rule, ...(model ? { model } : {}), count: 1 });
    }
  }

  recordSecurityEvents(count: number): void {
    this.securityEventCount += count;
  }

  get securityEvents(): number {
    return this.securityEventCount;
  }

  /** All counts, most frequent first. */
  snapshot(): TransformationCount[] {
    return [...this.counts.values()]
      .map((entry) => ({ ...entry }))
      .sort((a, b) => b.count - a.count || a.tool.localeCompare(b.tool) || a.rule.localeCompare(b.rule));
  }

  /** Count for one tool and rule (summed over models). */
  count(tool: string, rule: string): number {
    let total = 0;
    for (const entry of this.counts.values()) if (entry.tool === tool && entry.rule === rule) total += entry.count;
    return total;
  }

  reset(): void {
    this.counts.clear();
    this.securityEventCount = 0;
  }
}
