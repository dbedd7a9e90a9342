import {
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type ModuleMetadata,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { ToolRegistry, type Logger } from '@toolwright/core';
import {
  connectMcpServers,
  type ConnectMcpServersOptions,
  type McpConnections,
  type McpServerConfig,
} from '@toolwright/mcp';
import { TOOLWRIGHT_LOGGER } from '../constants';

const MCP_CLIENT_OPTIONS = Symbol.for('toolwright:nestjs:mcp-client-options');

export interface ToolwrightMcpClientOptions extends Omit<ConnectMcpServersOptions, 'logger'> {
  /** The MCP servers whose tools join `ToolwrightModule`'s registry (stdio commands or Streamable HTTP URLs). */
  readonly servers: readonly McpServerConfig[];
  /** Wait at bootstrap until every server is connected or given up. Default false (they connect in the background). */
  readonly waitForServers?: boolean;
  /** Default: `ToolwrightModule`'s logger. */
  readonly logger?: Logger;
}

export interface ToolwrightMcpClientAsyncOptions extends Pick<ModuleMetadata, 'imports'> {
  // `any`, as Nest's own FactoryProvider: the factory's arguments are the resolved `inject` tokens, of any type.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly useFactory: (...args: any[]) => ToolwrightMcpClientOptions | Promise<ToolwrightMcpClientOptions>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Nest injection tokens (classes, strings, symbols).
  readonly inject?: any[];
}

/** The MCP client connections of `ToolwrightMcpClientModule`: opened at module init, closed at application shutdown. */
@Injectable()
export class ToolwrightMcpClients implements OnModuleInit, OnApplicationShutdown {
  private current?: McpConnections;

  constructor(
    private readonly registry: ToolRegistry,
    @Inject(TOOLWRIGHT_LOGGER) private readonly logger: Logger,
    @Inject(MCP_CLIENT_OPTIONS) private readonly options: ToolwrightMcpClientOptions,
  ) {}

  /** Each server's connection and status, once the module is initialized. */
  get connections(): McpConnections | undefined {
    return this.current;
  }

  async onModuleInit(): Promise<void> {
    const { servers, waitForServers, logger, ...clientOptions } = this.options;
    this.current = connectMcpServers(this.registry, servers, { ...clientOptions, logger: logger ?? this.logger });
    if (waitForServers) await this.current.ready;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.current?.close();
    this.current = undefined;
  }
}

/**
 * Remote MCP servers' tools in `ToolwrightModule`'s registry (import both): connected at module init, in the
 * background unless `waitForServers`; the connections, and stdio servers' process groups, closed at application
 * shutdown. `app.get(ToolwrightMcpClients).connections` gives each server's status.
 */
@Module({})
export class ToolwrightMcpClientModule {
  static forRoot(options: ToolwrightMcpClientOptions): DynamicModule {
    return ToolwrightMcpClientModule.build({ provide: MCP_CLIENT_OPTIONS, useValue: options }, []);
  }

  static forRootAsync(options: ToolwrightMcpClientAsyncOptions): DynamicModule {
    return ToolwrightMcpClientModule.build(
      { provide: MCP_CLIENT_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] },
      options.imports ?? [],
    );
  }

  private static build(
    optionsProvider: NonNullable<ModuleMetadata['providers']>[number],
    imports: NonNullable<ModuleMetadata['imports']>,
  ): DynamicModule {
    return {
      module: ToolwrightMcpClientModule,
      imports,
      providers: [optionsProvider, ToolwrightMcpClients],
      exports: [ToolwrightMcpClients],
    };
  }
}
