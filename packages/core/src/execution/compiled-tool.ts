import { hasCrossFieldChecks } from '../pipeline/cross-field';
import { callTargetFor, type CallTarget } from '../pipeline/unwrap-call';
import { developerRulesPlan, type DeveloperRulesPlan } from '../pipeline/developer-rules';
import type { PipelineLimits } from '../pipeline/limits';
import { compileNormalizer, type Normalizer } from '../pipeline/normalizer';
import { sensitivePaths } from '../pipeline/redaction';
import type { RegisteredTool } from '../registry/tool-registry';
import type { ToolDefinition } from '../types/definition';
import type { CommandHandler } from '../types/handler';
import type { CoercionPolicy, Constructor, ObjectSchema } from '../types/schema';
import { generateBoundedAcceptFunction, type BoundedAcceptFunction, type OrderFact } from '../compile/accept-generator';
import { generateInstantiators, type GeneratedInstantiator } from '../compile/instantiate-generator';
import { generateIssueFinder, type IssueFinder } from '../compile/issue-generator';
import { instantiatorFor, type Instantiator } from '../pipeline/instantiate';
import { dtoForSchema } from '../validation/synthesize-dto';

/** The executor-level settings a compiled tool depends on. */
export interface CompileSettings {
  readonly policy: CoercionPolicy;
  readonly limits: PipelineLimits;
  readonly validation: 'compiled' | 'reference';
  readonly timeoutMs: number;
  readonly slowCallMs: number;
  /** `false`: every call the canonical check refuses goes through the normalizer (the differential tests' reference). */
  readonly canonicalFastPath?: boolean;
}

/**
 * Everything one call of a tool needs, built once per registry entry (on its first call) instead of a dozen lookups
 * per call. A call holds its compiled tool from name resolution to its result, so a tool an MCP refresh replaces in the
 * meantime is never half-seen: the call finishes with the entry it started with.
 */
export interface CompiledTool {
  readonly entry: RegisteredTool;
  readonly definition: ToolDefinition;
  readonly name: string;
  readonly policy: CoercionPolicy;
  /**
   * The reference path for repairs, transformations and messages (with every IR constraint on the compiled path).
   * Compiled on the first call the canonical check answers no for: a tool the model always calls right never builds it.
   */
  readonly normalize: Normalizer;
  /** `reference`: class-transformer + class-validator validate (the executor's option, or a rule only it honours). */
  readonly reference: boolean;
  readonly developerRules: DeveloperRulesPlan | undefined;
  /**
   * "Already valid and canonical?" (compiled path only; `undefined` on the reference path), with the parse step's bound
   * (decision 0020, fused-parse-check).
   */
  readonly accept: BoundedAcceptFunction | undefined;
  /** Whether the handler gets a DTO instance (class commands, and tools whose developer rules check one). */
  readonly needsInstance: boolean;
  readonly commandClass: Constructor<CommandHandler> | undefined;
  /** The DTO instantiator (generated code when it can be), built on the first call that needs an instance. */
  instantiator: Instantiator | undefined;
  /**
   * Where `accept` leaves whether the value it accepted last came with its keys in declaration order (a tool that
   * needs an instance and whose step 5 writes nothing into the arguments; `undefined` otherwise): then
   * `instantiateInOrder` builds the same instance without the key loops.
   */
  readonly order: OrderFact | undefined;
  /** The generated in-order instantiator (with `instantiator`; `undefined` when that is not generated code). */
  instantiateInOrder: GeneratedInstantiator | undefined;
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

/** Compiles one registry entry for an executor's settings. */
/** `resolvesHere` tells whether a tool name the model wrote resolves to this entry's tool (the executor's name resolution). */
export function compileTool(
  entry: RegisteredTool,
  settings: CompileSettings,
  resolvesHere: (name: string) => boolean,
): CompiledTool {
  const definition = entry.definition;
  const parameters = definition.parameters;
  const policy = definition.options.coercion ?? settings.policy;
  const developerRules = settings.validation === 'compiled' ? developerRulesPlan(parameters) : undefined;
  const reference = developerRules === undefined || developerRules.kind === 'reference';
  const commandClass = entry.implementation.kind === 'class' ? entry.implementation.command : undefined;
  const needsInstance = entry.implementation.kind === 'class' || developerRules?.kind === 'check';
  const injects = parameters.properties.some(
    (property) => property.context !== undefined || property.extract !== undefined,
  );
  const order: OrderFact | undefined = needsInstance && !injects && !reference ? { root: undefined } : undefined;
  return {
    entry,
    definition,
    name: definition.name,
    policy,
    normalize:
      reference || settings.canonicalFastPath === false
        ? lazyNormalizer(parameters, policy, reference ? 'types' : 'all')
        : normalizerWithErrorPath(parameters, policy, settings.limits),
    reference,
    developerRules,
    accept: reference ? undefined : generateBoundedAcceptFunction(parameters, settings.limits, order),
    needsInstance,
    commandClass,
    instantiator: undefined,
    order,
    instantiateInOrder: undefined,
    sensitivePaths: sensitivePaths(parameters),
    crossField: hasCrossFieldChecks(definition, commandClass),
    timeoutMs: definition.options.timeoutMs ?? settings.timeoutMs,
    slowCallMs: definition.options.slowCallMs ?? settings.slowCallMs,
    callTarget: new LazyCallTarget(definition, resolvesHere),
    injects,
    unrestricted: (definition.options.permissions ?? []).length === 0,
  };
}

/**
 * The parse step's call target, built the first time the parse step asks it something (only a call wrapped in an
 * envelope, or arguments text that is not JSON, does): its key set and closures are most of a first call's memory.
 */
class LazyCallTarget implements CallTarget {
  private built: CallTarget | undefined;

  constructor(
    private readonly definition: ToolDefinition,
    private readonly resolvesHere: (name: string) => boolean,
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

  private target(): CallTarget {
    return (this.built ??= callTargetFor(this.definition, this.resolvesHere));
  }
}

/** A normalizer compiled on its first use (its closures and key maps are most of a tool's memory). */
function lazyNormalizer(parameters: ObjectSchema, policy: CoercionPolicy, checks: 'types' | 'all'): Normalizer {
  let normalizer: Normalizer | undefined;
  return (value, path, state) => (normalizer ??= compileNormalizer(parameters, policy, checks))(value, path, state);
}

/**
 * The compiled path's normalizer behind the generated error path (`compile/issue-generator.ts`, generated on the first
 * call the canonical check refuses): a refused call that needs no repair gets its issues from the generated walk and
 * keeps its arguments (a shallow copy when step 5 writes context into them); any other call, or one the walk gives up
 * on, goes through the normalizer from the start, with whatever the walk pushed undone.
 */
function normalizerWithErrorPath(parameters: ObjectSchema, policy: CoercionPolicy, limits: PipelineLimits): Normalizer {
  const normalize = lazyNormalizer(parameters, policy, 'all');
  const injects = parameters.properties.some(
    (property) => property.context !== undefined || property.extract !== undefined,
  );
  let findIssues: IssueFinder | false | undefined;
  return (value, path, state) => {
    if (path === '' && findIssues !== false) {
      findIssues ??= generateIssueFinder(parameters, policy, limits) ?? false;
      if (findIssues !== false) {
        const issues = state.issues.length;
        const transformations = state.transformations.length;
        const events = state.securityEvents.length;
        if (
          findIssues(value as Record<string, unknown>, state) &&
          state.issues.length > issues &&
          state.transformations.length === transformations &&
          state.securityEvents.length === events
        )
          return injects ? { ...(value as Record<string, unknown>) } : value;
        state.issues.length = issues;
        state.transformations.length = transformations;
        state.securityEvents.length = events;
      }
    }
    return normalize(value, path, state);
  };
}

/** The compiled tool's DTO instantiator: generated code, or the closure instantiator when the generator gives up. */
export function instantiatorOf(compiled: CompiledTool): Instantiator {
  let instantiator = compiled.instantiator;
  if (instantiator === undefined) {
    const parameters = compiled.definition.parameters;
    const dto = dtoForSchema(parameters);
    const generated = generateInstantiators(parameters, dto);
    instantiator = generated?.any ?? instantiatorFor(parameters, dto);
    compiled.instantiateInOrder = generated?.inOrder;
    compiled.instantiator = instantiator;
  }
  return instantiator;
}
