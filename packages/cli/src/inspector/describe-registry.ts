import type { ExecutionContext, PersonaToolExecutor, ToolDefinition, ToolRegistry } from '@toolwright/core';
import { getProviders, type LintFinding, type ProviderId } from '@toolwright/providers';
import { lintSummary, providerDefinitions } from '../commands/describe-providers';
import { toJsonSafe } from '../output';
import { playgroundExamples, type PlaygroundExample } from './playground-examples';

/** One tool as the page shows it: the IR (plain data), the model-facing JSON Schema, each provider's definition, its lint findings. */
export interface PageTool {
  readonly name: string;
  readonly description: string;
  readonly title?: string;
  readonly source: ToolDefinition['source']['kind'];
  readonly options: unknown;
  /** The IR's parameters (context fields included, marked with `context`): what the form is generated from. */
  readonly parameters: unknown;
  /** The parameters as a model sees them (JSON Schema, context fields absent). */
  readonly jsonSchema: unknown;
  /** The IR of what the handler returns, when the tool declares it (`@Command({ returns })`, `outputSchema`). */
  readonly output?: unknown;
  readonly providers: ReadonlyArray<{
    readonly provider: ProviderId;
    readonly label: string;
    readonly name: string;
    readonly definition: unknown;
  }>;
  readonly lint: readonly LintFinding[];
  /** The playground's examples for this tool, generated from its parameters and checked with the executor. */
  readonly examples: readonly PlaygroundExample[];
}

export interface PageRegistry {
  readonly source: string;
  readonly allowRun: boolean;
  readonly providers: ReadonlyArray<{ readonly id: ProviderId; readonly label: string }>;
  readonly tools: readonly PageTool[];
  /** Findings about the whole set (tool `*`, e.g. the tool count). */
  readonly setFindings: readonly LintFinding[];
  readonly lintTotals: { readonly errors: number; readonly warnings: number; readonly infos: number };
  readonly defaultContext: unknown;
}

/** Everything the registry browser shows, built from the same provider code and executor the application uses. */
export async function describeRegistry(
  registry: ToolRegistry,
  options: { source: string; allowRun: boolean; defaultContext: ExecutionContext; executor: PersonaToolExecutor },
): Promise<PageRegistry> {
  const providers = getProviders().map((descriptor) => descriptor.id);
  const views = providerDefinitions(registry, providers);
  const summary = lintSummary(registry, providers);
  const definitions = registry.list();
  const tools = definitions.map((definition, index): Omit<PageTool, 'examples'> => {
    let jsonSchema: unknown;
    try {
      jsonSchema = registry.toJsonSchema(definition.name);
    } catch (error) {
      jsonSchema = { error: error instanceof Error ? error.message : String(error) };
    }
    return {
      name: definition.name,
      description: definition.description,
      ...(definition.options.title ? { title: definition.options.title } : {}),
      source: definition.source.kind,
      options: toJsonSafe(definition.options),
      parameters: toJsonSafe(withoutClasses(definition.parameters)),
      jsonSchema,
      ...(definition.output !== undefined ? { output: toJsonSafe(withoutClasses(definition.output)) } : {}),
      providers: views.map((view) => ({
        provider: view.provider,
        label: view.label,
        name: view.names[definition.name] ?? definition.name,
        definition: view.tools[index],
      })),
      lint: summary.findings.filter((finding) => finding.tool === definition.name),
    };
  });
  const withExamples: PageTool[] = [];
  for (const [index, tool] of tools.entries()) {
    const nameFor = (provider: ProviderId) =>
      tool.providers.find((entry) => entry.provider === provider)?.name ?? tool.name;
    const examples = await playgroundExamples(
      options.executor,
      registry,
      definitions[index]!,
      {
        openai: nameFor('openai'),
        anthropic: nameFor('anthropic'),
      },
      options.defaultContext,
    );
    withExamples.push({ ...tool, examples });
  }
  return {
    source: options.source,
    allowRun: options.allowRun,
    providers: getProviders().map((descriptor) => ({ id: descriptor.id, label: descriptor.label })),
    tools: withExamples,
    setFindings: summary.findings.filter(
      (finding) => finding.tool === '*' || !definitions.some((definition) => definition.name === finding.tool),
    ),
    lintTotals: { errors: summary.errors, warnings: summary.warnings, infos: summary.infos },
    defaultContext: toJsonSafe(options.defaultContext),
  };
}

/** The IR without its class references (`dto`): plain data for the page. */
function withoutClasses(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutClasses);
  if (typeof value !== 'object' || value === null) return value;
  const plain: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (key === 'dto' || typeof entry === 'function') continue;
    plain[key] = withoutClasses(entry);
  }
  return plain;
}
