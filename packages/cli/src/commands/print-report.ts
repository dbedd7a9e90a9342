import type { CallReport } from '../calls/call-report';
import { short, toJson, type Output } from '../output';
import { indent } from './tools-command';

/** A call report for a terminal: the arguments as sent, each transformation, then the parameters, result or error. */
export function printReport(report: CallReport, output: Output): void {
  const renamed = report.calledName !== report.tool ? ` (called as ${JSON.stringify(report.calledName)})` : '';
  const mode = report.mode === 'prepare' ? 'prepared: the handler was not called (--run calls it)' : 'ran the handler';
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
  } else if (report.error) {
    output.out(
      output.style('red', `refused: ${report.error.code}${report.error.retryable ? ' (the model may retry)' : ''}`),
    );
    output.out(output.style('dim', 'the model gets:'));
    output.out(indent(report.error.message, '  '));
  }
}
