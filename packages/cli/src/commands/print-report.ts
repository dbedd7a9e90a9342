import type { CallReport } from '../calls/call-report';
import { short, toJson, type Output } from '../output';
import { indent } from './tools-command';

/** A call report for a terminal: the arguments as sent, each transformation, then the parameters, result or error. */
export function printReport(report: CallReport, output: Output): void {
  const renamed = report.calledName !== report.tool ? ` (called as ${JSON.stringify(report.calledName)})` : '';
  const mode = modeLine(report);
  output.out(`${output.style('bold', report.tool)}${renamed}  ${output.style('dim', mode)}`);
  output.out(output.style('dim', 'arguments as sent:'));
  output.out(indent(report.argumentsText === '' ? '(none)' : report.argumentsText, '  '));
  output.out(output.style('dim', `transformations (${report.transformations.length}):`));
  report.transformations.forEach((transformation, index) => {
    const where = transformation.target.kind === 'name' ? '(tool name)' : transformation.path || '(arguments)';
    const change =
      'from' in transformation || 'to' in transformation
        ? `  ${short(transformation.from, 60)} -> ${short(transformation.to, 60)}`
        : '';
    const style = transformation.rule.startsWith('dropped-context') ? 'red' : 'yellow';
    output.out(
      `  ${String(index + 1).padStart(2)}  ${where.padEnd(24)} ${output.style(style, transformation.rule.padEnd(28))}${change}`,
    );
  });
  if (report.ok && report.mode === 'prepare') {
    output.out(output.style('green', 'validated parameters:'));
    output.out(indent(toJson(report.params), '  '));
  } else if (report.ok) {
    output.out(output.style('green', 'handler result:'));
    output.out(indent(toJson(report.value), '  '));
  } else if (report.error?.code === 'APPROVAL_REQUIRED') {
    output.out(output.style('yellow', `waiting for approval: ${report.error.code}`));
    output.out(output.style('dim', 'the model gets:'));
    output.out(indent(report.error.message, '  '));
    output.out(
      output.style(
        'dim',
        'toolwright try decides no approval: the pending one lived in this process and ended with it (the application resolves its own with executor.resolveApproval).',
      ),
    );
  } else if (report.error) {
    const verb = HANDLER_FAILURES.has(report.error.code) ? 'failed' : 'refused';
    output.out(
      output.style('red', `${verb}: ${report.error.code}${report.error.retryable ? ' (the model may retry)' : ''}`),
    );
    output.out(output.style('dim', 'the model gets:'));
    output.out(indent(report.error.message, '  '));
  }
}

/** The codes of a call whose handler ran (and failed, timed out or returned what its output schema refuses). */
const HANDLER_FAILURES: ReadonlySet<string> = new Set(['HANDLER_ERROR', 'TIMEOUT', 'RESULT_INVALID']);

/** What happened to the handler, said before the steps: a `--run` call refused before it never ran it. */
function modeLine(report: CallReport): string {
  if (report.mode === 'prepare') return 'prepared: the handler was not called (--run calls it)';
  if (report.ok) return 'ran the handler';
  const code = report.error?.code ?? '';
  if (HANDLER_FAILURES.has(code)) return 'ran the handler: it failed';
  if (code === 'APPROVAL_REQUIRED')
    return 'the handler did not run: the call waits for a person (the tool takes approval)';
  return 'the handler did not run: the call was refused before it';
}
