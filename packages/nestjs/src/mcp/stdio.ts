import type { INestApplicationContext, Type } from '@nestjs/common';
import type { NestApplicationContextOptions } from '@nestjs/common/interfaces/nest-application-context-options.interface';
import { NestFactory } from '@nestjs/core';
import { DefinitionError, PersonaToolExecutor, ToolRegistry, type Logger } from '@toolwright/core';
import { serveMcp, type McpServerHandle, type ServeMcpStdioOptions } from '@toolwright/mcp';
import { Writable } from 'node:stream';
import { TOOLWRIGHT_LOGGER } from '../constants';
import { nestMessages } from '../messages';
import { StderrConsoleLogger } from '../stderr-console-logger';

/** What `guardStdout` returns: the stream the MCP transport writes to, and the function that lifts the guard. */
export interface StdoutGuard {
  readonly stdout: Writable;
  restore(): void;
}

/**
 * Reserves `process.stdout` for the MCP transport: the returned stream writes to the real stdout, and anything else
 * that writes to `process.stdout` gets an error (printed to stderr with its stack, then thrown), instead of silently
 * corrupting the client's JSON-RPC stream.
 */
export function guardStdout(
  stream: NodeJS.WriteStream = process.stdout,
  stderr: NodeJS.WritableStream = process.stderr,
): StdoutGuard {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- restored onto the same stream and called with it as `this`.
  const originalWrite = stream.write;
  const transportStdout = new Writable({
    write(chunk: Buffer | string, encoding: BufferEncoding, callback: (error?: Error | null) => void) {
      originalWrite.call(stream, chunk, encoding, callback);
    },
  });
  stream.write = function guardedWrite(chunk: unknown): boolean {
    const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
    const error = new DefinitionError(nestMessages.stdoutWrite(text.slice(0, 200)), { target: 'process.stdout' });
    stderr.write(`${error.stack ?? error.message}\n`);
    throw error;
  };
  return {
    stdout: transportStdout,
    restore: () => {
      stream.write = originalWrite;
    },
  };
}

export interface McpStdioBootstrapOptions extends Omit<
  ServeMcpStdioOptions,
  'transport' | 'stdout' | 'executor' | 'redirectConsole'
> {
  /** Options of `NestFactory.createApplicationContext`; the default logger is `StderrConsoleLogger`. */
  readonly nest?: NestApplicationContextOptions;
  /** Throw on any other write to `process.stdout` (default true). */
  readonly guardStdout?: boolean;
}

export interface McpStdioApplication {
  readonly app: INestApplicationContext;
  readonly server: McpServerHandle;
  /** Resolves when the client closed the session and the Nest app was closed. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts `module` as a Nest application context (no HTTP) and serves its toolwright registry over MCP stdio: Nest's
 * logs and toolwright's go to stderr, `console.log` is routed to stderr, any other stdout write fails loudly, and the
 * Nest app closes (shutdown hooks, MCP client connections) when the client ends the session.
 */
export async function bootstrapMcpStdio(
  module: Type<unknown>,
  options: McpStdioBootstrapOptions = {},
): Promise<McpStdioApplication> {
  const guard = options.guardStdout === false ? undefined : guardStdout();
  const { nest, guardStdout: _guard, ...serveOptions } = options;
  let app: INestApplicationContext;
  try {
    app = await NestFactory.createApplicationContext(module, { logger: new StderrConsoleLogger(), ...nest });
  } catch (error) {
    guard?.restore();
    throw error;
  }
  const logger = serveOptions.logger ?? app.get<Logger>(TOOLWRIGHT_LOGGER);
  const server = await serveMcp(app.get(ToolRegistry), {
    ...serveOptions,
    logger,
    transport: 'stdio',
    executor: app.get(PersonaToolExecutor),
    stdout: guard?.stdout ?? process.stdout,
    redirectConsole: true,
  });
  const closed = server.closed.then(async () => {
    await app.close();
    guard?.restore();
  });
  return {
    app,
    server,
    closed,
    close: async () => {
      await server.close();
      await closed;
    },
  };
}
