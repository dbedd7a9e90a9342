import {
  All,
  Controller,
  Inject,
  Injectable,
  Module,
  Req,
  Res,
  UseGuards,
  type CanActivate,
  type DynamicModule,
  type OnModuleDestroy,
  type Type,
} from '@nestjs/common';
import { PersonaToolExecutor, ToolRegistry, type Logger } from '@toolwright/core';
import { createMcpHttpEndpoint, type McpHttpEndpoint, type McpHttpEndpointOptions } from '@toolwright/mcp';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { TOOLWRIGHT_LOGGER } from '../constants';

const MCP_HTTP_OPTIONS = Symbol.for('toolwright:nestjs:mcp-http-options');

export interface ToolwrightMcpHttpOptions extends Omit<McpHttpEndpointOptions, 'executor'> {
  /** The route of the MCP endpoint on Nest's HTTP adapter. Default `mcp`. */
  readonly path?: string;
  /** Nest guards for the endpoint (authentication, ...), applied like on any controller. */
  readonly guards?: ReadonlyArray<Type<CanActivate> | CanActivate>;
}

/** The endpoint over the module's registry and executor; its sessions close with the module. */
@Injectable()
export class McpHttpEndpointHost implements OnModuleDestroy {
  readonly endpoint: McpHttpEndpoint;

  constructor(
    registry: ToolRegistry,
    executor: PersonaToolExecutor,
    @Inject(TOOLWRIGHT_LOGGER) logger: Logger,
    @Inject(MCP_HTTP_OPTIONS) options: ToolwrightMcpHttpOptions,
  ) {
    const { path: _path, guards: _guards, ...endpointOptions } = options;
    this.endpoint = createMcpHttpEndpoint(registry, { logger, ...endpointOptions, executor });
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

    return {
      module: ToolwrightMcpHttpModule,
      controllers: [ToolwrightMcpController],
      providers: [{ provide: MCP_HTTP_OPTIONS, useValue: options }, McpHttpEndpointHost],
      exports: [McpHttpEndpointHost],
    };
  }
}
