import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import type { CommandHandler, ToolInvocationContext } from '../types/handler';
import type { Constructor } from '../types/schema';
import { constructorParameters } from './command-construction';
import { EXECUTION_CONTEXT, TOOL_INVOCATION } from './tokens';

/**
 * How the executor gets the instance that runs a `@Command` class for one call (type-graphql's
 * `container.get(cls, resolverData)` is the model). The call's trusted context is `invocation.context`; a resolver
 * for another container (Nest, inversify, ...) hands it to the command however that container injects per-call values.
 * A resolver may return a promise (Nest's `ModuleRef.resolve`). Whatever it throws becomes the call's HANDLER_ERROR.
 */
export type CommandResolver = (
  commandClass: Constructor<CommandHandler>,
  invocation: ToolInvocationContext,
) => CommandHandler | Promise<CommandHandler>;

/** Builds one command instance for one call. */
type CommandFactory = (invocation: ToolInvocationContext) => CommandHandler;

/**
 * The default resolver, over a tsyringe container (default: tsyringe's root container). One factory per command
 * class, built on the class's first call and kept:
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
  const factories = new WeakMap<Function, CommandFactory>();
  // The class resolved last and its factory: the same command called again costs one comparison, no WeakMap lookup.
  let lastClass: Function | undefined;
  let lastFactory: CommandFactory | undefined;
  return (commandClass, invocation) => {
    if (commandClass === lastClass) return lastFactory!(invocation);
    let factory = factories.get(commandClass);
    if (factory === undefined) {
      factory = buildFactory(commandClass, container);
      factories.set(commandClass, factory);
    }
    lastClass = commandClass;
    lastFactory = factory;
    return factory(invocation);
  };
}

function buildFactory(commandClass: Constructor<CommandHandler>, container: DependencyContainer): CommandFactory {
  const parameters = constructorParameters(commandClass);
  if (needsPerCallInjection(parameters, container, new Set([commandClass]))) {
    return (invocation) => {
      const child = container.createChildContainer();
      child.register(EXECUTION_CONTEXT, { useValue: invocation.context });
      child.register(TOOL_INVOCATION, { useValue: invocation });
      return child.resolve(commandClass);
    };
  }
  // Asked once per class: a command registered in the container (`@singleton()`, `container.register(...)`) is
  // resolved through it, so its lifecycle holds.
  if (parameters.length > 0 || commandClass.length > 0 || container.isRegistered(commandClass, true)) {
    return () => container.resolve(commandClass);
  }
  return () => new commandClass();
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
