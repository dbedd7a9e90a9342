import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import type { CommandHandler, CommandResolver, ToolInvocationContext } from '../types/handler';
import type { Constructor } from '../types/schema';
import { constructorParameters } from './command-construction';
import { EXECUTION_CONTEXT, TOOL_INVOCATION } from './tokens';

export type { CommandResolver } from '../types/handler';

/**
 * How a command class is built for a call, decided on its first call and kept (a number per class in the resolver's
 * table, not a factory closure per class).
 */
const enum Construction {
  /** `new Command()`: no constructor parameters and no registration in the container. */
  New,
  /** `container.resolve(Command)`: dependencies, none of them per call, or a registration (its lifecycle holds). */
  Resolve,
  /** A child container per call holding this call's context and invocation. */
  PerCall,
}

/**
 * The default resolver, over a tsyringe container (default: tsyringe's root container). How each command class is
 * built is decided on the class's first call and kept:
 * - no constructor parameters and no registration of the class in the container: `new Command()`, with no container
 *   call at all (tsyringe's `has()`/`get()` insert an empty root entry for every token they are asked about, and
 *   `createChildContainer()` walks every root entry, so a per-call container made every call slower with every
 *   distinct command ever called);
 * - constructor dependencies, none of them per call: `container.resolve(Command)` (tsyringe's lifecycles apply; the
 *   root grows by the command's own tokens once, never per call);
 * - a dependency on `EXECUTION_CONTEXT` or `TOOL_INVOCATION`, directly or through an unregistered class it
 *   constructs: a child container per call holding this call's context and invocation.
 */
export function tsyringeCommandResolver(container: DependencyContainer = rootContainer): CommandResolver {
  const constructions = new WeakMap<Function, Construction>();
  // The class resolved last and how it is built: the same command called again costs one comparison, no WeakMap lookup.
  let lastClass: Function | undefined;
  let lastConstruction = Construction.New;
  return (commandClass, invocation) => {
    if (commandClass !== lastClass) {
      let construction = constructions.get(commandClass);
      if (construction === undefined) {
        construction = constructionOf(commandClass, container);
        constructions.set(commandClass, construction);
      }
      lastClass = commandClass;
      lastConstruction = construction;
    }
    return construct(lastConstruction, commandClass, container, invocation);
  };
}

function constructionOf(commandClass: Constructor<CommandHandler>, container: DependencyContainer): Construction {
  const parameters = constructorParameters(commandClass);
  if (needsPerCallInjection(parameters, container, new Set([commandClass]))) return Construction.PerCall;
  // Asked once per class: a command registered in the container (`@singleton()`, `container.register(...)`) is
  // resolved through it, so its lifecycle holds.
  if (parameters.length > 0 || commandClass.length > 0 || container.isRegistered(commandClass, true))
    return Construction.Resolve;
  return Construction.New;
}

/** Builds one command instance for one call. */
function construct(
  construction: Construction,
  commandClass: Constructor<CommandHandler>,
  container: DependencyContainer,
  invocation: ToolInvocationContext,
): CommandHandler {
  if (construction === Construction.New) return new commandClass();
  if (construction === Construction.Resolve) return container.resolve(commandClass);
  const child = container.createChildContainer();
  child.register(EXECUTION_CONTEXT, { useValue: invocation.context });
  child.register(TOOL_INVOCATION, { useValue: invocation });
  return child.resolve(commandClass);
}

/** Whether a constructor needs this call's values: a per-call token, directly or through a class tsyringe would construct. */
function needsPerCallInjection(
  parameters: readonly unknown[],
  container: DependencyContainer,
  visiting: Set<Function>,
): boolean {
  for (const parameter of parameters) {
    const token = tokenOf(parameter);
    if (token === EXECUTION_CONTEXT || token === TOOL_INVOCATION) return true;
    if (typeof token === 'function' && !visiting.has(token) && token.prototype !== undefined) {
      visiting.add(token);
      // Followed whether or not it is registered (asking tsyringe would grow its root): at worst a child container.
      if (
        isPlainService(token) &&
        needsPerCallInjection(constructorParameters(token as Constructor), container, visiting)
      )
        return true;
    }
  }
  return false;
}

/** Built-in constructors (String, Object, ...) and classes without parameters end the walk. */
function isPlainService(token: Function): boolean {
  return (
    token !== Object &&
    token !== String &&
    token !== Number &&
    token !== Boolean &&
    token !== Array &&
    token !== Function
  );
}

/** The token of a tsyringe parameter entry: a token, or a descriptor `{ token, multiple, isOptional, transform }`. */
function tokenOf(parameter: unknown): unknown {
  if (typeof parameter === 'object' && parameter !== null && 'token' in parameter) return parameter.token;
  return parameter;
}
