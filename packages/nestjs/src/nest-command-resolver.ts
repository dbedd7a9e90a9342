import { Injectable } from '@nestjs/common';
import { ContextIdFactory, ModuleRef } from '@nestjs/core';
import type { CommandHandler, CommandResolver, Constructor, ToolInvocationContext } from '@toolwright/core';
import { ToolCallRequest } from './tool-call-request';
import type { CommandCallInterceptor } from './toolwright-options';

/** How one discovered command is built for a call. */
export type CommandProvision =
  /** A singleton whose whole dependency tree is static: Nest's instance, the same for every call. */
  | { readonly kind: 'singleton'; readonly instance: CommandHandler }
  /** Request-scoped or transient (itself or through a dependency): `ModuleRef.resolve` with a context id per call. */
  | { readonly kind: 'per-call'; readonly moduleRef: ModuleRef };

/**
 * The executor's `resolveCommand` over Nest's container. Filled by discovery at bootstrap; a class it was not told
 * about is an error naming the fix (the executor turns it into HANDLER_ERROR for the call).
 */
@Injectable()
export class NestCommandResolver {
  private readonly provisions = new Map<Function, CommandProvision>();
  private interceptCall?: CommandCallInterceptor;

  setProvision(commandClass: Function, provision: CommandProvision): void {
    this.provisions.set(commandClass, provision);
  }

  setInterceptor(interceptor: CommandCallInterceptor | undefined): void {
    this.interceptCall = interceptor;
  }

  /** The hook the executor calls. */
  readonly resolve: CommandResolver = (commandClass, invocation) => {
    const provision = this.provisions.get(commandClass);
    if (provision === undefined) {
      throw new Error(
        `${commandClass.name} is not a provider discovered by ToolwrightModule; add it to a module's providers.`,
      );
    }
    if (provision.kind === 'singleton') return this.intercepted(commandClass, provision.instance, invocation);
    return this.resolvePerCall(commandClass, provision.moduleRef, invocation);
  };

  /** One context id per call; the call is that context's REQUEST, so `@InjectToolContext()` sees only this call. */
  async resolvePerCall(
    commandClass: Constructor<CommandHandler>,
    moduleRef: ModuleRef,
    invocation: ToolInvocationContext,
  ): Promise<CommandHandler> {
    const contextId = ContextIdFactory.create();
    moduleRef.registerRequestByContextId(new ToolCallRequest(invocation), contextId);
    const command = await moduleRef.resolve<CommandHandler>(commandClass, contextId, { strict: false });
    return this.intercepted(commandClass, command, invocation);
  }

  private intercepted(
    commandClass: Function,
    command: CommandHandler,
    invocation: ToolInvocationContext,
  ): CommandHandler {
    const interceptCall = this.interceptCall;
    if (interceptCall === undefined) return command;
    return {
      execute: (params, callInvocation) =>
        interceptCall({ commandClass, command, params, invocation }, () =>
          Promise.resolve(command.execute(params, callInvocation)),
        ),
    };
  }
}
