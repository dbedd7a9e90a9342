import { PermissionDeniedError } from '../errors/permission-denied-error';
import { UnknownToolError } from '../errors/unknown-tool-error';
import { messages } from '../pipeline/messages';
import { resolveToolName } from '../pipeline/name-resolution';
import { isToolAllowed } from '../pipeline/permissions';
import type { ToolCompiler } from '../registry/tool-compiler';
import type { ToolRegistry } from '../registry/tool-registry';
import type { ExecutionContext, ToolCall, Transformation } from '../types/execution';
import type { RegisteredTool } from '../types/handler';
import { PreparationFailure, type ArgumentPreparation, type Preparation } from './prepare-arguments';

/**
 * Steps 1-6 of a call: 1 resolve the name, 2 check the persona, then 3-6 with the tool's compiled plan
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
  const transformations: Transformation[] = Array.isArray(call?.transformations) ? [...call.transformations] : [];
  const requested = typeof call?.name === 'string' ? call.name : '';
  const callId = typeof call?.id === 'string' ? call.id : '';

  // 1. Resolve the name; the entry found here serves the whole call (a replacement registered meanwhile waits for the next call).
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
  const definition = compiled.definition;

  // 2. May this persona call it? (A call without a persona may call any tool that requires no permission.)
  const persona = context.persona;
  if ((persona !== undefined || !compiled.unrestricted) && !isToolAllowed(definition, persona))
    return new PreparationFailure(
      new PermissionDeniedError(messages.permissionDenied(tool, persona?.name)),
      tool,
      transformations,
    );

  // 3-6. Read, normalize, inject context and validate, with the tool's compiled plan.
  return preparation.prepare(call, context, compiled, tool, callId, transformations);
}
