import { EXIT_CODES } from '../exit-codes';
import { toJson, type Output } from '../output';
import type { LoadedTools } from '../source/tools';
import type { ProviderId } from '@toolwright/providers';
import { providerDefinitions } from './describe-providers';

/** `toolwright tools`: the definitions exactly as each provider gets them, with the name codec's mapping. */
export function toolsCommand(
  tools: LoadedTools,
  options: { providers: ProviderId[]; json: boolean; strict: boolean },
  output: Output,
): number {
  const views = providerDefinitions(tools.registry, options.providers, { strict: options.strict });
  if (options.json) {
    output.out(toJson({ source: tools.label, providers: views }));
    return EXIT_CODES.ok;
  }
  for (const view of views) {
    output.out(
      output.style(
        'bold',
        `${view.provider} (${view.label}): ${view.tools.length} tool${view.tools.length === 1 ? '' : 's'}`,
      ),
    );
    for (const [name, encoded] of Object.entries(view.names)) {
      output.out(
        `  ${name}${encoded === name ? '' : ` ${output.style('dim', '->')} ${output.style('cyan', encoded)}`}`,
      );
    }
    output.out(indent(toJson(view.tools), '  '));
    output.out('');
  }
  return EXIT_CODES.ok;
}

export function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => `${prefix}${line}`)
    .join('\n');
}
