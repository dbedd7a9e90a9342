import type { ToolRegistry } from '@toolwright/core';
import { getProvider, lint, type LintFinding, type ProviderId } from '@toolwright/providers';

/** One provider's view of the tool set: the exact definitions it gets and the codec's name mapping. */
export interface ProviderDefinitions {
  readonly provider: ProviderId;
  readonly label: string;
  /** Registry name -> the name this provider sees. */
  readonly names: Readonly<Record<string, string>>;
  readonly tools: readonly unknown[];
}

/** The definitions exactly as each provider's `createToolSet` builds them (what the application sends). */
export function providerDefinitions(
  registry: ToolRegistry,
  providers: readonly ProviderId[],
  options: { strict?: boolean } = {},
): ProviderDefinitions[] {
  return providers.map((provider) => {
    const descriptor = getProvider(provider);
    const toolSet = descriptor.createToolSet(
      registry,
      descriptor.supportsStrict && options.strict ? { strict: true } : {},
    );
    const names: Record<string, string> = {};
    for (const definition of toolSet.definitions) names[definition.name] = toolSet.codec.encode(definition.name);
    return { provider, label: descriptor.label, names, tools: toolSet.tools };
  });
}

export interface LintSummary {
  readonly findings: readonly LintFinding[];
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
}

export function lintSummary(
  registry: ToolRegistry,
  providers: readonly ProviderId[],
  options: { strict?: boolean } = {},
): LintSummary {
  const findings = lint(registry, { providers, strict: options.strict ?? false });
  const count = (severity: LintFinding['severity']) =>
    findings.filter((finding) => finding.severity === severity).length;
  return { findings, errors: count('error'), warnings: count('warning'), infos: count('info') };
}
