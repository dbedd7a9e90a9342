import type { LintFinding, ProviderId } from '@toolwright/providers';
import { EXIT_CODES } from '../exit-codes';
import { toJson, type Output } from '../output';
import type { LoadedTools } from '../source/tools';
import { lintSummary } from './describe-providers';

const SEVERITY_STYLE = { error: 'red', warning: 'yellow', info: 'dim' } as const;

/** `toolwright lint`: every tool against every chosen provider's limits; exit 1 when any finding is an error. */
export function lintCommand(
  tools: LoadedTools,
  options: { providers: ProviderId[]; json: boolean; strict: boolean; info: boolean },
  output: Output,
): number {
  const summary = lintSummary(tools.registry, options.providers, { strict: options.strict });
  const code = summary.errors > 0 ? EXIT_CODES.problem : EXIT_CODES.ok;
  if (options.json) {
    output.out(toJson({ source: tools.label, providers: options.providers, ...summary }));
    return code;
  }
  const shown = options.info ? summary.findings : summary.findings.filter((finding) => finding.severity !== 'info');
  const byTool = new Map<string, LintFinding[]>();
  for (const finding of shown) byTool.set(finding.tool, [...(byTool.get(finding.tool) ?? []), finding]);
  for (const [tool, findings] of byTool) {
    output.out(output.style('bold', tool === '*' ? '(the whole tool set)' : tool));
    for (const finding of findings) {
      output.out(
        `  ${output.style(SEVERITY_STYLE[finding.severity], finding.severity.padEnd(7))} ${finding.provider.padEnd(16)} ${finding.rule}: ${finding.message}`,
      );
      output.out(`  ${' '.repeat(7)} ${' '.repeat(16)} ${output.style('dim', `fix: ${finding.fix}`)}`);
    }
  }
  const hidden = summary.infos > 0 && !options.info ? ' (--info lists the info findings)' : '';
  const line = `${summary.errors} error${summary.errors === 1 ? '' : 's'}, ${summary.warnings} warning${summary.warnings === 1 ? '' : 's'}, ${summary.infos} info for ${tools.registry.size} tool${tools.registry.size === 1 ? '' : 's'} and ${options.providers.length} provider${options.providers.length === 1 ? '' : 's'}${hidden}`;
  output.out(summary.errors > 0 ? output.style('red', line) : output.style('green', line));
  return code;
}
