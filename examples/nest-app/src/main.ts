import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { StderrConsoleLogger } from '@toolwright/nestjs';
import { bootstrapMcpStdio } from '@toolwright/nestjs/mcp';
import { AppModule, CommandsModule } from './app.module';

/**
 *   node examples/nest-app [--port N]   HTTP on 127.0.0.1 (POST /tool-calls, GET /tools?provider=openai, MCP at /mcp)
 *   node examples/nest-app --stdio      the same commands over MCP stdio (stdout carries only JSON-RPC)
 */
async function main(argv: readonly string[]): Promise<void> {
  if (argv.includes('--stdio')) {
    await bootstrapMcpStdio(CommandsModule);
    return;
  }
  const portIndex = argv.indexOf('--port');
  const port = portIndex === -1 ? 3000 : Number(argv[portIndex + 1]);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error('Usage: node examples/nest-app [--port N] | --stdio');
  const app = await NestFactory.create(AppModule, { logger: new StderrConsoleLogger() });
  app.enableShutdownHooks();
  await app.listen(port, '127.0.0.1');
  process.stderr.write(`nest-app listening on ${await app.getUrl()}\n`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
