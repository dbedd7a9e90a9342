import {
  All,
  Controller,
  Get,
  Inject,
  Injectable,
  Module,
  Req,
  Res,
  UseGuards,
  type CanActivate,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  type Type,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { PersonaToolExecutor, ToolRegistry, type Logger } from '@toolwright/core';
import {
  createMcpHttpEndpoint,
  MCP_HTTP_DEFAULTS,
  protectedResourceMetadataPath,
  type McpHttpEndpoint,
  type McpHttpEndpointOptions,
} from '@toolwright/mcp';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { TOOLWRIGHT_LOGGER } from '../constants';

const MCP_HTTP_OPTIONS = Symbol.for('toolwright:nestjs:mcp-http-options');

export interface ToolwrightMcpHttpOptions extends Omit<McpHttpEndpointOptions, 'executor'> {
  /** The route of the MCP endpoint on Nest's HTTP adapter. Default `mcp`. */
  readonly path?: string;
  /**
   * An OAuth 2.1 resource server, as `serveMcp`'s `auth` (`resource` is required here: the endpoint's public URL);
   * the protected resource metadata is routed at its well-known path beside the endpoint.
   */
  readonly auth?: McpHttpEndpointOptions['auth'];
  /** Nest guards for the endpoint (authentication, ...), applied like on any controller. */
  readonly guards?: ReadonlyArray<Type<CanActivate> | CanActivate>;
  /**
   * Set the Nest HTTP server's `headersTimeout`, `requestTimeout`, `keepAliveTimeout` and `maxConnections` from
   * `headersTimeoutMs`, `requestTimeoutMs`, `keepAliveTimeoutMs` and `maxConnections` (defaults as `serveMcp`'s:
   * 10 s, 30 s, 5 s, 2,000) at application bootstrap, so a socket that sends nothing or trickles its headers is
   * closed (408). They are the server's, so they hold for every route of the app. Default true; false leaves the
   * server as the app configured it.
   */
  readonly configureHttpServer?: boolean;
}

/**
 * The endpoint over the module's registry and executor; its sessions close with the module. At application bootstrap
 * (before `listen`) it sets the Nest HTTP server's timeouts (`configureHttpServer`).
 */
@Injectable()
export class McpHttpEndpointHost implements OnApplicationBootstrap, OnModuleDestroy {
  readonly endpoint: McpHttpEndpoint;

  constructor(
    registry: ToolRegistry,
    executor: PersonaToolExecutor,
    @Inject(TOOLWRIGHT_LOGGER) logger: Logger,
    @Inject(MCP_HTTP_OPTIONS) private readonly options: ToolwrightMcpHttpOptions,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    // The endpoint checks the options (positive whole numbers, headers within the request time): a DefinitionError.
    const { path: _path, guards: _guards, configureHttpServer: _configure, ...endpointOptions } = options;
    this.endpoint = createMcpHttpEndpoint(registry, { logger, ...endpointOptions, executor });
  }

  onApplicationBootstrap(): void {
    if (this.options.configureHttpServer === false) return;
    // No adapter in an application context (stdio); express and fastify both hand out Node's http.Server.
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (server === undefined) return;
    const headersTimeoutMs = this.options.headersTimeoutMs ?? MCP_HTTP_DEFAULTS.headersTimeoutMs;
    server.headersTimeout = headersTimeoutMs;
    server.requestTimeout = this.options.requestTimeoutMs ?? MCP_HTTP_DEFAULTS.requestTimeoutMs;
    server.keepAliveTimeout = this.options.keepAliveTimeoutMs ?? MCP_HTTP_DEFAULTS.keepAliveTimeoutMs;
    server.maxConnections = this.options.maxConnections ?? MCP_HTTP_DEFAULTS.maxConnections;
    // Node checks the two timeouts on this interval (default 30 s, which would stretch a 10 s limit to 40 s); it is
    // read when the server starts listening, which Nest does after bootstrap.
    (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.max(
      10,
      Math.min(1_000, Math.floor(headersTimeoutMs / 4)),
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.endpoint.close();
  }
}

/**
 * MCP over Streamable HTTP on Nest's own HTTP adapter: a controller at `path` (every method), so Nest's middleware,
 * guards and interceptors apply; the tools are `ToolwrightModule`'s registry, run by its executor. Works with the
 * express and fastify adapters (the raw Node request and response are handed to the MCP transport).
 */
@Module({})
export class ToolwrightMcpHttpModule {
  static forRoot(options: ToolwrightMcpHttpOptions = {}): DynamicModule {
    const path = options.path ?? 'mcp';

    @Controller()
    class ToolwrightMcpController {
      constructor(private readonly host: McpHttpEndpointHost) {}

      @All(path)
      async handle(
        @Req() request: IncomingMessage & { body?: unknown; raw?: IncomingMessage },
        @Res() response: ServerResponse & { raw?: ServerResponse },
      ): Promise<void> {
        await this.host.endpoint.handle(request.raw ?? request, response.raw ?? response, request.body);
      }
    }
    if (options.guards !== undefined && options.guards.length > 0)
      UseGuards(...options.guards)(ToolwrightMcpController);
    const controllers: Type[] = [ToolwrightMcpController];

    const resource = options.auth?.resource;
    if (resource !== undefined) {
      const metadataPath = protectedResourceMetadataPath(resource);
      // The metadata is public (clients read it before they hold a token): no guards on this route.
      @Controller()
      class ToolwrightMcpMetadataController {
        constructor(private readonly host: McpHttpEndpointHost) {}

        @Get(metadataPath)
        metadata(
          @Req() request: IncomingMessage & { raw?: IncomingMessage },
          @Res() response: ServerResponse & { raw?: ServerResponse },
        ): void {
          this.host.endpoint.handleMetadata(request.raw ?? request, response.raw ?? response);
        }
      }
      controllers.push(ToolwrightMcpMetadataController);
    }

    return {
      module: ToolwrightMcpHttpModule,
      controllers,
      providers: [{ provide: MCP_HTTP_OPTIONS, useValue: options }, McpHttpEndpointHost],
      exports: [McpHttpEndpointHost],
    };
  }
}
