import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestLoggerAdapter, StderrConsoleLogger, ToolwrightModule } from '@toolwright/nestjs';

@Module({
  imports: [
    // The default logger is `new NestLoggerAdapter()`; this one also passes debug events on (one per successful call).
    ToolwrightModule.forRoot({ logger: new NestLoggerAdapter(undefined, { level: 'debug' }) }),
  ],
})
export class VerboseToolsModule {}

export async function startWithLogsOnStderr() {
  // Every level on stderr; colors only when stderr is a terminal (and NO_COLOR is unset).
  const app = await NestFactory.create(VerboseToolsModule, { logger: new StderrConsoleLogger() });
  return app;
}
