import { hasCrossFieldChecks } from '../pipeline/cross-field';
import { callTargetFor, type CallTarget } from '../pipeline/unwrap-call';
import { developerRulesPlan, type DeveloperRulesPlan } from '../pipeline/developer-rules';
import type { PipelineLimits } from '../pipeline/limits';
import { compileNormalizer, type Normalizer } from '../pipeline/normalizer';
import { sensitivePaths } from '../pipeline/redaction';
import type { ToolDefinition } from '../types/definition';
import type { CommandHandler, RegisteredTool } from '../types/handler';
import type { CoercionPolicy, Constructor, ObjectSchema } from '../types/schema';
import { generateBoundedAcceptFunction, type BoundedAcceptFunction } from './accept-generator';
import { generatedSource } from './compile-function';
import { generateInstantiators, type GeneratedInstantiator } from './instantiate-generator';
import { generateIssueFinder, type IssueFinder } from './issue-generator';
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
  /**
   * `true` (the executor's `compile: 'registration'`): the generated error path is built with the plan, so that no call
   * generates code. Otherwise it is generated on the first call the canonical check refuses (most tools are only ever
   * called right: about 24 KiB per tool saved).
   */
  readonly ahead?: boolean;
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
  /**
   * The reference path for repairs, transformations and messages (with every IR constraint on the compiled path).
   * Its closures are built on the first call the canonical check answers no for: a tool the model always calls right
   * never builds them.
   */
  readonly normalize: Normalizer;
  /** `reference`: class-transformer + class-validator validate (the executor's option, or a rule only it honours). */
  readonly reference: boolean;
  readonly developerRules: DeveloperRulesPlan | undefined;
  /**
   * "Already valid and canonical?" (compiled path only; `undefined` on the reference path), with the parse step's bound
   * (decision 0020, fused-parse-check) and, with `tracksOrder`, the order fact (decision 0022).
   */
  readonly accept: BoundedAcceptFunction | undefined;
  /** Whether the handler gets a DTO instance (class commands, and tools whose developer rules check one). */
  readonly needsInstance: boolean;
  readonly commandClass: Constructor<CommandHandler> | undefined;
  /** The DTO instantiator on the compiled path (generated code when it can be; `undefined` when no instance is built). */
  readonly instantiate: Instantiator | undefined;
  /**
   * The generated in-order instantiator (decision 0022), for arguments the canonical check accepted with their keys in
   * declaration order; `undefined` when `accept` does not track the order or the instantiator is not generated code.
   */
  readonly instantiateInOrder: GeneratedInstantiator | undefined;
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
 * Compiles one registry entry for an executor's settings. `resolvesHere` tells whether a tool name the model wrote
 * resolves to this entry's tool (the executor's name resolution).
 */
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
  // The in-order instantiation of decision 0022: a tool that builds an instance and whose step 5 writes nothing into the
  // arguments (so the instance is built from the very object the check accepted).
  const tracksOrder = needsInstance && !injects && !reference;
  const instantiators = needsInstance && !reference ? instantiatorsFor(parameters) : undefined;
  return Object.freeze({
    entry,
    definition,
    name: definition.name,
    policy,
    settings,
    normalize:
      reference || settings.canonicalFastPath === false
        ? lazyNormalizer(parameters, policy, reference ? 'types' : 'all')
        : normalizerWithErrorPath(parameters, policy, settings, definition.name),
    reference,
    developerRules,
    accept: reference
      ? undefined
      : generateBoundedAcceptFunction(parameters, settings.limits, tracksOrder, definition.name),
    needsInstance,
    commandClass,
    instantiate: instantiators?.any,
    instantiateInOrder: tracksOrder ? instantiators?.inOrder : undefined,
    sensitivePaths: sensitivePaths(parameters),
    crossField: hasCrossFieldChecks(definition, commandClass),
    timeoutMs: definition.options.timeoutMs ?? settings.timeoutMs,
    slowCallMs: definition.options.slowCallMs ?? settings.slowCallMs,
    callTarget: new LazyCallTarget(definition, resolvesHere),
    injects,
    unrestricted: (definition.options.permissions ?? []).length === 0,
  });
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
 * The compiled path's normalizer behind the generated error path (`compile/issue-generator.ts`, generated with the
 * plan when compiling ahead, else on the first call the canonical check refuses): a refused call that needs no repair gets its issues from the generated walk and
 * keeps its arguments (a shallow copy when step 5 writes context into them); any other call, or one the walk gives up
 * on, goes through the normalizer from the start, with whatever the walk pushed undone.
 */
function normalizerWithErrorPath(
  parameters: ObjectSchema,
  policy: CoercionPolicy,
  settings: CompileSettings,
  tool: string,
): Normalizer {
  const normalize = lazyNormalizer(parameters, policy, 'all');
  const injects = parameters.properties.some(
    (property) => property.context !== undefined || property.extract !== undefined,
  );
  // Generated with the plan when compiling ahead, else on the first call the canonical check refuses.
  let findIssues: IssueFinder | false | undefined;
  const errorPath = (): IssueFinder | false =>
    (findIssues ??= generateIssueFinder(parameters, policy, settings.limits, tool) ?? false);
  const normalizer: Normalizer = (value, path, state) => {
    if (path === '' && findIssues !== false) {
      const find = errorPath();
      if (find !== false) {
        const issues = state.issues.length;
        const transformations = state.transformations.length;
        const events = state.securityEvents.length;
        if (
          find(value as Record<string, unknown>, state) &&
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
  if (settings.ahead === true) errorPath();
  ERROR_PATHS.set(normalizer, errorPath);
  return normalizer;
}

/** The generated error path behind each compiled normalizer that has one, generated when asked. */
const ERROR_PATHS = new WeakMap<Normalizer, () => IssueFinder | false>();

/** Generates now what a plan otherwise generates on its first refused call (the error path): compiling ahead. */
export function generateAhead(compiled: CompiledTool): void {
  ERROR_PATHS.get(compiled.normalize)?.();
}

/**
 * The code generated for a compiled tool, as its generators wrote it (each piece starts with a comment naming it and
 * the tool, and ends with its `//# sourceURL`): the canonical check, the error path (generated now if it was not
 * yet), the DTO instantiators. What
 * `toolwright inspect --code <tool>` prints; empty when nothing was generated (the reference path).
 */
export function printGeneratedCode(compiled: CompiledTool): string {
  const pieces = [compiled.accept, ERROR_PATHS.get(compiled.normalize)?.(), compiled.instantiate]
    .map((built) => generatedSource(built))
    .filter((source): source is string => source !== undefined);
  return pieces.join('\n');
}

/** The DTO instantiators of a tool's parameters: generated code, or the closure instantiator when the generator gives up. */
function instantiatorsFor(parameters: ObjectSchema): {
  readonly any: Instantiator;
  readonly inOrder: GeneratedInstantiator | undefined;
} {
  const dto = dtoForSchema(parameters);
  const generated = generateInstantiators(parameters, dto);
  return { any: generated?.any ?? instantiatorFor(parameters, dto), inOrder: generated?.inOrder };
}
