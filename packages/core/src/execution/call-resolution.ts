import { PermissionDeniedError } from '../errors/permission-denied-error';
import { UnknownToolError } from '../errors/unknown-tool-error';
import { messages } from '../pipeline/messages';
import { resolveToolName } from '../pipeline/name-resolution';
import { isToolAllowed } from '../pipeline/permissions';
import type { ToolCompiler } from '../registry/tool-compiler';
import type { ToolRegistry } from '../registry/tool-registry';
import type { ExecutionContext, ToolCall, Transformation } from '../types/execution';
import type { RegisteredTool } from '../types/handler';
import type { CompiledTool } from '../compile/tool-plan';
import { PreparationFailure, type ArgumentPreparation, type Preparation } from './prepare-arguments';

/** Steps 1 and 2 of a call passed: the tool's compiled plan, its registry name and the changes made so far. */
export interface ResolvedCall {
  readonly compiled: CompiledTool;
  readonly tool: string;
  readonly transformations: Transformation[];
}

/**
 * Steps 1 and 2 of a call: 1 resolve the name (exact, codec, alias, case; else UNKNOWN_TOOL with suggestions), 2 check
 * the persona. The compiled tool found here serves the whole call (a replacement registered meanwhile waits for the
 * next call). Shared by the whole-call path (`prepareCall`) and the streamed one (`./streamed-call.ts`).
 */
export function resolveCall(
  registry: ToolRegistry,
  compiler: ToolCompiler,
  call: ToolCall,
  context: ExecutionContext,
): ResolvedCall | PreparationFailure {
  const transformations: Transformation[] = Array.isArray(call?.transformations) ? [...call.transformations] : [];
  const requested = typeof call?.name === 'string' ? call.name : '';

  // 1. Resolve the name.
  let entry = registry.getEntry(requested);
  let tool = requested;
  if (entry === undefined) {
    const resolution = resolveToolName(registry, requested);
    if (!resolution.found) {
      return new PreparationFailure(
        new UnknownToolError(messages.unknownTool(requested, resolution.suggestions, registry.size), {
          suggestions: resolution.suggestions,
        }),
        requested,
        transformations,
      );
    }
    tool = resolution.name;
    if (resolution.rule)
      transformations.push({ path: '', rule: `tool-name-${resolution.rule}`, from: requested, to: tool });
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- resolveToolName found it: the entry exists
    entry = registry.getEntry(tool) as RegisteredTool;
  }
  const compiled = compiler.compiledFor(entry);

  // 2. May this persona call it? (A call without a persona may call any tool that requires no permission.)
  const persona = context.persona;
  if ((persona !== undefined || !compiled.unrestricted) && !isToolAllowed(compiled.definition, persona))
    return new PreparationFailure(
      new PermissionDeniedError(messages.permissionDenied(tool, persona?.name)),
      tool,
      transformations,
    );
  return { compiled, tool, transformations };
}

/**
 * Steps 1-6 of a call: 1 resolve the name, 2 check the persona (`resolveCall`), then 3-6 with the tool's compiled plan
 * (`ArgumentPreparation`). Synchronous unless a step is asynchronous (the reference validation, an async developer
 * rule, a cross-field `validate` function): then a promise. Throws (or rejects with) a PreparationFailure.
 */
export function prepareCall(
  registry: ToolRegistry,
  compiler: ToolCompiler,
  preparation: ArgumentPreparation,
  call: ToolCall,
  context: ExecutionContext,
): Preparation | Promise<Preparation> {
  const resolved = resolveCall(registry, compiler, call, context);
  if (resolved instanceof PreparationFailure) return resolved;
  const callId = typeof call?.id === 'string' ? call.id : '';
  // 3-6. Read, normalize, inject context and validate, with the tool's compiled plan.
  return preparation.prepare(call, context, resolved.compiled, resolved.tool, callId, resolved.transformations);
}
