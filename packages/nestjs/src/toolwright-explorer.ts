import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, ModuleRef } from '@nestjs/core';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper';
import {
  ToolRegistry,
  type CommandHandler,
  type Constructor,
  type Logger,
  type ToolInvocationContext,
} from '@toolwright/core';
import { getCommandMetadata } from '@toolwright/core/internal';
import { TOOLWRIGHT_LOGGER, TOOLWRIGHT_MODULE_OPTIONS } from './constants';
import { nestMessages } from './messages';
import { NestCommandResolver } from './nest-command-resolver';
import type { ToolwrightModuleOptions } from './toolwright-options';

/**
 * Bootstrap: finds every provider whose class carries `@Command` (DiscoveryService, as @nestjs/graphql does), registers
 * it, decides per command whether Nest's singleton runs every call or a per-call `ModuleRef.resolve` is needed,
 * checks per-call commands resolve, and adds `forRoot`'s JSON-Schema and compact tools. (Remote MCP servers' tools:
 * `ToolwrightMcpClientModule` from `@toolwright/nestjs/mcp`.)
 */
@Injectable()
export class ToolwrightExplorer implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly moduleRef: ModuleRef,
    private readonly registry: ToolRegistry,
    private readonly resolver: NestCommandResolver,
    @Inject(TOOLWRIGHT_MODULE_OPTIONS) private readonly options: ToolwrightModuleOptions,
    @Inject(TOOLWRIGHT_LOGGER) private readonly logger: Logger,
  ) {}

  async onModuleInit(): Promise<void> {
    this.resolver.setInterceptor(this.options.interceptCall);
    for (const [commandClass, wrapper] of this.discoverCommands()) {
      this.registry.register(commandClass);
      if (wrapper.isDependencyTreeStatic() && !wrapper.isTransient) {
        this.resolver.setProvision(commandClass, { kind: 'singleton', instance: wrapper.instance as CommandHandler });
      } else {
        this.resolver.setProvision(commandClass, { kind: 'per-call', moduleRef: this.moduleRef });
        if (this.options.checkAtBootstrap ?? true) await this.checkResolves(commandClass);
      }
    }
    for (const tool of this.options.jsonSchemaTools ?? [])
      this.registry.registerJsonSchemaTool(tool.declaration, tool.handler, tool.options);
    for (const tool of this.options.compactTools ?? [])
      this.registry.registerCompact(tool.declaration, tool.handler, tool.options);
  }

  /** Every `@Command` provider class, once; a class provided by two modules is refused. */
  private discoverCommands(): Map<Constructor<CommandHandler>, InstanceWrapper> {
    const found = new Map<Constructor<CommandHandler>, InstanceWrapper[]>();
    for (const wrapper of this.discovery.getProviders()) {
      const metatype = wrapper.metatype;
      if (typeof metatype !== 'function' || wrapper.inject || getCommandMetadata(metatype) === undefined) continue;
      const commandClass = metatype as Constructor<CommandHandler>;
      found.set(commandClass, [...(found.get(commandClass) ?? []), wrapper]);
    }
    const commands = new Map<Constructor<CommandHandler>, InstanceWrapper>();
    for (const [commandClass, wrappers] of found) {
      const hosts = [...new Set(wrappers.map((wrapper) => wrapper.host?.name ?? '(unknown module)'))];
      if (wrappers.length > 1) throw nestMessages.providedTwice(commandClass.name, hosts);
      commands.set(commandClass, wrappers[0]!);
    }
    return commands;
  }

  /** A per-call command resolved once with an empty context: a missing provider fails now, with Nest's message. */
  private async checkResolves(commandClass: Constructor<CommandHandler>): Promise<void> {
    const invocation: ToolInvocationContext = {
      callId: 'bootstrap-check',
      tool: commandClass.name,
      context: {},
      signal: new AbortController().signal,
      logger: this.logger,
    };
    try {
      await this.resolver.resolvePerCall(commandClass, this.moduleRef, invocation);
    } catch (error) {
      throw nestMessages.bootstrapResolution(commandClass.name, error);
    }
  }
}
