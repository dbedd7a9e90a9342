import { ResultInvalidError } from '../errors/result-invalid-error';
import { DEFAULT_LIMITS } from '../pipeline/limits';
import { compileNormalizer, NormalizeState } from '../pipeline/normalizer';
import { ToolContent } from '../types/content';
import type { ToolDefinition } from '../types/definition';
import type { ValidationIssue } from '../types/execution';

const NO_ISSUES: readonly ValidationIssue[] = Object.freeze([]);

/**
 * Checks a handler's result against the tool's output schema (`definition.output`, from `@Command({ returns })` or
 * `outputSchema`) and returns the mismatches: none when the tool declares no output schema or the result matches.
 *
 * The result is checked in its JSON form (what a provider or an MCP client receives: a `Date` as its ISO text, a class
 * instance as its own enumerable fields), by the same compiled checks as a tool's arguments under the `strict` policy:
 * nothing is repaired (a handler is trusted code, so a mismatch is the developer's bug), unknown keys of a closed
 * object are refused. Cross-field rules and class-validator rules the IR cannot say (`@IsEmail`) are not checked here.
 * A `ToolContent` value is checked by its `structuredContent` (what an output schema describes, as in MCP); its parts
 * are the model's view, not the typed result.
 */
export function checkToolResult(definition: ToolDefinition, value: unknown): readonly ValidationIssue[] {
  const output = definition.output;
  if (output === undefined) return NO_ISSUES;
  if (ToolContent.isInstance(value) && value.structuredContent === undefined)
    return [
      resultIssue('a JSON object (the structuredContent of a ToolContent)', 'a ToolContent without structuredContent'),
    ];
  const checked = ToolContent.isInstance(value) ? value.structuredContent : value;
  let json: unknown;
  try {
    const text = JSON.stringify(checked);
    if (text === undefined) return [resultIssue('a JSON object', 'nothing (undefined)')];
    json = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return [resultIssue('a JSON object', `a value JSON cannot hold (${reason})`)];
  }
  const state = new NormalizeState({ relativeDateTool: false, limits: DEFAULT_LIMITS });
  compileNormalizer(output, 'strict', 'all')(json, '', state);
  if (state.issues.length > 0) return state.issues;
  // Under `strict` nothing is changed; a change would mean the value was not what the schema says.
  return state.transformations.map((transformation) =>
    resultIssue(
      'the value exactly as the output schema says',
      `a value needing ${transformation.rule}`,
      transformation.path,
    ),
  );
}

function resultIssue(expected: string, received: string, path = ''): ValidationIssue {
  const where = path === '' ? 'the result' : `result.${path}`;
  return Object.freeze({
    path,
    rule: 'result',
    expected,
    received,
    message: `${where}: expected ${expected}, received ${received}.`,
  });
}

/**
 * The RESULT_INVALID error for a result with mismatches: a generic message for the model, the mismatches as its
 * issues and its cause's message (logged once, by the executor's outcome log).
 */
export function resultInvalidError(tool: string, issues: readonly ValidationIssue[]): ResultInvalidError {
  const listed = issues
    .slice(0, 10)
    .map((issue) => `${issue.path === '' ? '(root)' : issue.path}: ${issue.message}`)
    .join('; ');
  const more = issues.length > 10 ? ` (and ${issues.length - 10} more)` : '';
  return new ResultInvalidError(
    `The tool "${tool}" failed: it produced an invalid result. The arguments were valid; do not retry this call.`,
    {
      issues,
      cause: new Error(`the result of tool ${tool} does not match its output schema: ${listed}${more}`),
    },
  );
}
