import { readFileSync } from 'node:fs';
import {
  PersonaToolExecutor,
  silentLogger,
  type CoercionPolicy,
  type ExecutionContext,
  type ToolCall,
  type TransformationCount,
} from '@toolwright/core';
import { reportCall, transformationsOf, type CallReport } from '../calls/call-report';
import { readCall } from '../calls/read-call';
import { CliError } from '../errors/cli-error';
import { EXIT_CODES } from '../exit-codes';
import { toJson, type Output } from '../output';
import { contextFromJson, type LoadedTools } from '../source/tools';

/** One recorded call: a JSON line, with the context it ran with when the line has one. */
export interface RecordedCall {
  readonly line: number;
  readonly call: ToolCall;
  readonly context?: ExecutionContext;
}

export interface ReplaySummary {
  readonly calls: number;
  readonly ok: number;
  readonly refused: number;
  /** Lines that held no tool call, with the reason. */
  readonly skipped: ReadonlyArray<{ readonly line: number; readonly reason: string }>;
  readonly tools: ReadonlyArray<{ readonly tool: string; readonly ok: number; readonly refused: number }>;
  /** Refusals per error code. */
  readonly refusals: Readonly<Record<string, number>>;
  /** The executor's TransformationStats: rule counts per tool (and model, when the context names it). */
  readonly transformations: readonly TransformationCount[];
  readonly securityEvents: number;
  readonly results: ReadonlyArray<{
    readonly line: number;
    readonly tool: string;
    readonly ok: boolean;
    readonly code?: string;
    readonly transformations: number;
  }>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads one JSON line as a call: `{"call": {...}, "context": {...}}`, a bare call `{"id", "name", "arguments"}`
 * (a logger's record; `tool` is read as `name`), a JSON-RPC `tools/call` request (the MCP client's), or any provider's
 * response shape.
 */
export function recordedCall(text: string, line: number, registry: LoadedTools['registry']): RecordedCall {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(`not JSON (${(error as Error).message})`, EXIT_CODES.problem);
  }
  if (!isRecord(value)) throw new CliError('not a JSON object', EXIT_CODES.problem);
  const context =
    value['context'] === undefined ? undefined : contextFromJson(value['context'], `line ${line} "context"`);
  const wrapped = isRecord(value['call']) ? value['call'] : value;
  const name =
    typeof wrapped['name'] === 'string'
      ? wrapped['name']
      : typeof wrapped['tool'] === 'string'
        ? wrapped['tool']
        : undefined;
  if (name !== undefined && ('arguments' in wrapped || 'args' in wrapped || 'input' in wrapped)) {
    const argumentsValue = wrapped['arguments'] ?? wrapped['args'] ?? wrapped['input'];
    if (
      argumentsValue !== null &&
      argumentsValue !== undefined &&
      typeof argumentsValue !== 'string' &&
      !isRecord(argumentsValue)
    ) {
      throw new CliError('"arguments" is neither text nor an object', EXIT_CODES.problem);
    }
    const id = typeof wrapped['id'] === 'string' ? wrapped['id'] : `line_${line}`;
    return { line, call: { id, name, arguments: argumentsValue }, ...(context ? { context } : {}) };
  }
  const read = readCall(text, { registry, shape: 'auto', id: `line_${line}` });
  return { line, call: read.call, ...(context ? { context } : {}) };
}

/** `toolwright replay <file.jsonl>`: every recorded call through the executor, then ok / refused per tool and rule. */
export async function replayCommand(
  tools: LoadedTools,
  file: string,
  options: { context: ExecutionContext; policy?: CoercionPolicy; run: boolean; json: boolean },
  output: Output,
): Promise<number> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(
      `replay ${file}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Fix: pass a JSON Lines file of recorded calls.`,
      EXIT_CODES.usage,
      { cause: error },
    );
  }
  const executor = new PersonaToolExecutor(tools.registry, {
    logger: silentLogger,
    ...(options.policy ? { policy: options.policy } : {}),
  });
  const skipped: Array<{ line: number; reason: string }> = [];
  const reports: Array<{ line: number; report: CallReport }> = [];
  const lines = text.split(/\r?\n/);
  for (const [index, content] of lines.entries()) {
    if (content.trim() === '') continue;
    let recorded: RecordedCall;
    try {
      recorded = recordedCall(content, index + 1, tools.registry);
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      skipped.push({ line: index + 1, reason: error.message });
      continue;
    }
    const context = { ...options.context, ...recorded.context };
    const report = await reportCall(executor, recorded.call, { context, run: options.run });
    // The executor counts transformations when it runs a call; a prepared call is counted here, in the same stats.
    if (!options.run && report.transformations.length > 0)
      executor.stats.record(report.tool, transformationsOf(report), context.model);
    reports.push({ line: recorded.line, report });
  }
  if (reports.length === 0) {
    throw new CliError(
      `replay ${file}: the file holds no tool calls (${skipped.length} line${skipped.length === 1 ? '' : 's'} skipped${skipped[0] ? `; line ${skipped[0].line}: ${skipped[0].reason}` : ''}).`,
      EXIT_CODES.usage,
    );
  }
  const perTool = new Map<string, { tool: string; ok: number; refused: number }>();
  const refusals: Record<string, number> = {};
  for (const { report } of reports) {
    const entry = perTool.get(report.tool) ?? { tool: report.tool, ok: 0, refused: 0 };
    if (report.ok) entry.ok++;
    else {
      entry.refused++;
      const code = report.error?.code ?? 'UNKNOWN';
      refusals[code] = (refusals[code] ?? 0) + 1;
    }
    perTool.set(report.tool, entry);
  }
  const summary: ReplaySummary = {
    calls: reports.length,
    ok: reports.filter(({ report }) => report.ok).length,
    refused: reports.filter(({ report }) => !report.ok).length,
    skipped,
    tools: [...perTool.values()],
    refusals,
    transformations: executor.stats.snapshot(),
    securityEvents: executor.stats.securityEvents,
    results: reports.map(({ line, report }) => ({
      line,
      tool: report.tool,
      ok: report.ok,
      ...(report.error ? { code: report.error.code } : {}),
      transformations: report.transformations.length,
    })),
  };
  if (options.json) {
    output.out(toJson(summary));
    return EXIT_CODES.ok;
  }
  printSummary(summary, options.run, output);
  return EXIT_CODES.ok;
}

function printSummary(summary: ReplaySummary, run: boolean, output: Output): void {
  for (const result of summary.results) {
    const outcome = result.ok ? output.style('green', 'ok     ') : output.style('red', 'refused');
    output.out(
      `line ${String(result.line).padStart(4)}  ${outcome}  ${result.tool}${result.code ? `  ${result.code}` : ''}${result.transformations > 0 ? output.style('dim', `  (${result.transformations} transformation${result.transformations === 1 ? '' : 's'})`) : ''}`,
    );
  }
  for (const entry of summary.skipped)
    output.out(output.style('yellow', `line ${String(entry.line).padStart(4)}  skipped  ${entry.reason}`));
  output.out('');
  output.out(
    output.style(
      'bold',
      `${summary.calls} calls ${run ? 'run' : 'prepared'}: ${summary.ok} ok, ${summary.refused} refused${summary.skipped.length > 0 ? `, ${summary.skipped.length} lines skipped` : ''}`,
    ),
  );
  output.out(output.style('dim', 'per tool:'));
  for (const entry of summary.tools)
    output.out(
      `  ${entry.tool.padEnd(28)} ${String(entry.ok).padStart(4)} ok  ${String(entry.refused).padStart(4)} refused`,
    );
  if (Object.keys(summary.refusals).length > 0) {
    output.out(output.style('dim', 'refusals per code:'));
    for (const [code, count] of Object.entries(summary.refusals).sort((a, b) => b[1] - a[1]))
      output.out(`  ${String(count).padStart(4)}  ${code}`);
  }
  output.out(output.style('dim', 'transformations per tool and rule:'));
  if (summary.transformations.length === 0) output.out('  (none)');
  for (const entry of summary.transformations)
    output.out(
      `  ${String(entry.count).padStart(4)}  ${entry.tool.padEnd(28)} ${entry.rule}${entry.model ? `  (${entry.model})` : ''}`,
    );
  output.out(`security events (the model tried to set trusted context): ${summary.securityEvents}`);
}
