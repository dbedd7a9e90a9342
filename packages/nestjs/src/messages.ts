import { DefinitionError } from '@toolwright/core';

/** Every message @toolwright/nestjs raises: what, where, and the fix. */
export const nestMessages = {
  outsideToolCall: (token: string) =>
    new DefinitionError(
      `${token} was resolved outside a tool call: it holds the context of one call, and Nest's REQUEST here is not a tool call.`,
      {
        target: '@toolwright/nestjs',
        fix: 'inject it only into @Command classes (and the providers they use) that PersonaToolExecutor runs; an HTTP controller passes the context to executor.execute(call, context) instead.',
      },
    ),

  providedTwice: (className: string, modules: readonly string[]) =>
    new DefinitionError(
      `is provided by more than one module (${modules.join(', ')}), so which instance runs a call would be ambiguous.`,
      {
        target: `command ${className}`,
        fix: 'provide the command in one module (export it from there if other modules need it).',
      },
    ),

  bootstrapResolution: (className: string, cause: unknown) =>
    new DefinitionError(
      `could not be resolved at bootstrap: ${cause instanceof Error ? cause.message : String(cause)}`,
      {
        target: `command ${className}`,
        fix: 'provide every dependency of the command in its module (or import the module that exports it).',
      },
      { cause },
    ),

  stdoutWrite: (preview: string) =>
    `Something wrote to stdout while an MCP stdio server owns it (stdout carries only JSON-RPC messages; this would corrupt the client's stream): ${JSON.stringify(preview)}. ` +
    'Fix: log through the Nest logger or the toolwright logger (both go to stderr here), or write to process.stderr.',
};
