import { hasCrossFieldChecks } from '../pipeline/cross-field';
import { callTargetFor, type CallTarget } from '../pipeline/unwrap-call';
import { developerRulesPlan, type DeveloperRulesPlan } from '../pipeline/developer-rules';
import type { PipelineLimits } from '../pipeline/limits';
import { resolveToolName, type ToolLookup } from '../pipeline/name-resolution';
import { compileNormalizer, NormalizeState, type Normalizer } from '../pipeline/normalizer';
import { sensitivePaths } from '../pipeline/redaction';
import type { ToolDefinition } from '../types/definition';
import type { CommandHandler, RegisteredTool } from '../types/handler';
import type { CoercionPolicy, Constructor } from '../types/schema';
import { canonicalCheck, type CanonicalCheck } from './canonical-check';
import { printableName } from './hot-check';
import { hotInstantiatorSources } from './hot-instantiate';
import type { HotTier } from './hot-tier';
import { describeInstantiator, instantiatorFor, type Instantiator } from '../pipeline/instantiate';
import { dtoForSchema } from '../validation/synthesize-dto';

/** The executor-level settings a compiled tool depends on. */
export interface CompileSettings {
  readonly policy: CoercionPolicy;
  readonly limits: PipelineLimits;
  readonly validation: 'compiled' | 'reference';
  readonly timeoutMs: number;
  readonly slowCallMs: number;
  /** `false`: the canonical check is not run, every call goes through the normalizer (the differential tests' reference). */
  readonly canonicalFastPath?: boolean;
  /** The hot tier that counts the executor's calls (each check has a tier of its own when absent). */
  readonly hotTier?: HotTier;
}

/**
 * Everything one call of a tool needs, built once per registry entry and executor (on the tool's first call, or ahead
 * of it by `PersonaToolExecutor.compileAll`) and frozen: no call writes into it. A call holds its compiled tool from
 * name resolution to its result, so a tool an MCP refresh replaces in the meantime is never half-seen: the call
 * finishes with the entry it started with.
 */
export interface CompiledTool {
  readonly entry: RegisteredTool;
  readonly definition: ToolDefinition;
  readonly name: string;
  readonly policy: CoercionPolicy;
  /** The settings it was compiled for (the parse step's limits, the canonical fast path). */
  readonly settings: CompileSettings;
  /** `reference`: class-transformer + class-validator validate (the executor's option, or a rule only it honours). */
  readonly reference: boolean;
  readonly developerRules: DeveloperRulesPlan | undefined;
  /**
   * "Already valid and canonical?" (compiled path only; `undefined` on the reference path), with the parse step's bound
   * (the parse and the check fused into one walk): the tool's records, walked by the one shared walk of `compile/canonical-check.ts`.
   */
  readonly check: CanonicalCheck | undefined;
  /** Whether the handler gets a DTO instance (class commands, and tools whose developer rules check one). */
  readonly needsInstance: boolean;
  readonly commandClass: Constructor<CommandHandler> | undefined;
  /** The DTO instantiator on the compiled path (`undefined` when no instance is built). */
  readonly instantiate: Instantiator | undefined;
  readonly sensitivePaths: ReadonlySet<string>;
  readonly crossField: boolean;
  readonly timeoutMs: number;
  readonly slowCallMs: number;
  /** Whether step 5 has anything to do: a context field or an extracted field at the top level. */
  readonly injects: boolean;
  /** What the parse step needs to recognise a whole call wrapped around the arguments. */
  readonly callTarget: CallTarget;
  /** Whether the tool requires no permission: then a call without a persona may call it (step 2 has nothing to check). */
  readonly unrestricted: boolean;
}

/**
 * Compiles one registry entry for an executor's settings. `tools`: the registry the executor resolves names in (a tool
 * name the model wrote in a wrapped call resolves to this entry's tool when it names it there).
 */
export function compileTool(entry: RegisteredTool, settings: CompileSettings, tools: ToolLookup): CompiledTool {
  const definition = entry.definition;
  const parameters = definition.parameters;
  const policy = definition.options.coercion ?? settings.policy;
  const developerRules = settings.validation === 'compiled' ? developerRulesPlan(parameters) : undefined;
  const reference = developerRules === undefined || developerRules.kind === 'reference';
  const commandClass = entry.implementation.kind === 'class' ? entry.implementation.command : undefined;
  const needsInstance = entry.implementation.kind === 'class' || developerRules?.kind === 'check';
  const instantiate = needsInstance && !reference ? instantiatorFor(parameters, dtoForSchema(parameters)) : undefined;
  const injects = parameters.properties.some(
    (property) => property.context !== undefined || property.extract !== undefined,
  );
  return Object.freeze({
    entry,
    definition,
    name: definition.name,
    policy,
    settings,
    reference,
    developerRules,
    // A hot tool's instantiator gets code of its own with its canonical check (decision 0031, amended).
    check: reference
      ? undefined
      : canonicalCheck(parameters, settings.limits, definition.name, instantiate, settings.hotTier),
    needsInstance,
    commandClass,
    instantiate,
    sensitivePaths: sensitivePaths(parameters),
    crossField: hasCrossFieldChecks(definition, commandClass),
    timeoutMs: definition.options.timeoutMs ?? settings.timeoutMs,
    slowCallMs: definition.options.slowCallMs ?? settings.slowCallMs,
    callTarget: new LazyCallTarget(definition, tools, policy, settings.limits),
    injects,
    unrestricted: (definition.options.permissions ?? []).length === 0,
  });
}

/**
 * The parse step's call target, built the first time the parse step asks it something (only a call wrapped in an
 * envelope, or arguments text that is not JSON, does): its key set and closures are most of a first call's memory.
 * It holds the registry, not a closure per tool: the name test is made only when the target is built.
 */
class LazyCallTarget implements CallTarget {
  private built: CallTarget | undefined;

  constructor(
    private readonly definition: ToolDefinition,
    private readonly tools: ToolLookup,
    private readonly policy: CoercionPolicy,
    private readonly limits: PipelineLimits,
  ) {}

  get tool(): string {
    return this.definition.name;
  }

  declares(key: string): boolean {
    return this.target().declares(key);
  }

  names(name: string): boolean {
    return this.target().names(name);
  }

  sensitive(path: string): boolean {
    return this.target().sensitive!(path);
  }

  accepts(value: Record<string, unknown>): Record<string, unknown> | undefined {
    return this.target().accepts!(value);
  }

  private target(): CallTarget {
    if (this.built !== undefined) return this.built;
    const { tools } = this;
    const tool = this.definition.name;
    const { definition, policy, limits } = this;
    return (this.built = callTargetFor(
      definition,
      (name) => {
        const named = resolveToolName(tools, name);
        return named.found && named.name === tool;
      },
      // The normalizer with every constraint, on a scratch state: accepted when nothing is refused and nothing dropped.
      (value) => {
        const state = new NormalizeState({ relativeDateTool: false, limits });
        const normalized = compileNormalizer(definition.parameters, policy, 'all')(value, '', state);
        const accepted =
          typeof normalized === 'object' &&
          normalized !== null &&
          state.issues.length === 0 &&
          !state.transformations.some((record) => record.rule.startsWith('dropped-'));
        return accepted ? (normalized as Record<string, unknown>) : undefined;
      },
    ));
  }
}

/**
 * A compiled tool's normalizer: the reference path for repairs, transformations and messages (with every IR constraint
 * on the compiled path). Its closures are built on the first call the canonical check answers no for (and kept by
 * `compileNormalizer` for the schema): a tool the model always calls right never builds them. A function of the
 * compiled tool, not a lazy closure kept in it per tool.
 */
export function normalizerOf(compiled: CompiledTool): Normalizer {
  return compileNormalizer(compiled.definition.parameters, compiled.policy, compiled.reference ? 'types' : 'all');
}

/**
 * A compiled tool's plan as text: what `toolwright inspect --code <tool>` prints. Nothing is generated: the canonical check's records, one line per schema node, and how the DTO instance is built; empty on the
 * reference path, where neither exists. The first line names the tool (printable ASCII only: a remote MCP tool's name is
 * untrusted).
 */
export function printToolPlan(compiled: CompiledTool): string {
  if (compiled.check === undefined) return '';
  const pieces = [
    `// toolwright: plan of ${printableName(compiled.name)}`,
    `canonical check: ${compiled.check.print()}`,
  ];
  if (compiled.instantiate !== undefined) pieces.push(`instantiate: ${describeInstantiator(compiled.instantiate)}`);
  pieces.push(
    `hot check (${compiled.check.specialized ? 'running' : 'generated when the tool is hot'}):`,
    compiled.check.source().source,
  );
  const instantiator = compiled.instantiate && hotInstantiatorSources(compiled.instantiate, compiled.name);
  if (instantiator !== undefined)
    pieces.push(
      `hot instantiator (${instantiator.running ? 'running' : 'generated when the tool is hot'}):`,
      ...instantiator.sources.map((code) => code.source),
    );
  return `${pieces.join('\n')}\n`;
}
