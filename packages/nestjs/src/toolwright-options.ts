import type { ModuleMetadata } from '@nestjs/common';
import type {
  CommandHandler,
  CompactDeclaration,
  JsonSchemaToolDeclaration,
  JsonSchemaToolOptions,
  Logger,
  PersonaToolExecutorOptions,
  ToolHandler,
  ToolInvocationContext,
  ToolOptions,
} from '@toolwright/core';

/** One call as the per-call hook sees it: the command Nest resolved, the validated parameters, the invocation. */
export interface CommandCall {
  readonly commandClass: Function;
  readonly command: CommandHandler;
  readonly params: unknown;
  readonly invocation: ToolInvocationContext;
}

/**
 * The per-call hook (a guard or an interceptor around every `@Command` call): call `next()` to run the command and
 * return (or transform) its result, or throw to stop it (a toolwright `PermissionDeniedError` reaches the model as
 * `PERMISSION_DENIED`; anything else as `HANDLER_ERROR`, its message never sent).
 */
export type CommandCallInterceptor = (call: CommandCall, next: () => Promise<unknown>) => unknown;

/** A JSON-Schema tool added in `forRoot` (a remote or hand-written schema run by a function). */
export interface JsonSchemaToolRegistration {
  readonly declaration: JsonSchemaToolDeclaration;
  readonly handler: ToolHandler;
  readonly options?: JsonSchemaToolOptions;
}

/** A compact-grammar tool added in `forRoot`. */
export interface CompactToolRegistration {
  readonly declaration: CompactDeclaration;
  readonly handler: ToolHandler;
  readonly options?: ToolOptions;
}

export interface ToolwrightModuleOptions {
  /** The executor's options (policy, limits, timeouts, validation); commands are always resolved through Nest. */
  readonly executor?: Omit<PersonaToolExecutorOptions, 'resolveCommand' | 'logger'>;
  /** Default: `NestLoggerAdapter` over `new Logger('Toolwright')` (the app's Nest logger; debug events only when enabled). */
  readonly logger?: Logger;
  /** Registering a tool name twice: `'error'` (default in the Nest module: bootstrap fails) or `'replace'`. */
  readonly onDuplicate?: 'error' | 'replace';
  readonly jsonSchemaTools?: readonly JsonSchemaToolRegistration[];
  readonly compactTools?: readonly CompactToolRegistration[];
  /** A guard or interceptor around every `@Command` call. */
  readonly interceptCall?: CommandCallInterceptor;
  /**
   * Resolve every discovered request-scoped or transient command once at bootstrap (with an empty context), so a
   * missing provider stops the app with Nest's message. Default true. (Singletons are built by Nest at bootstrap.)
   */
  readonly checkAtBootstrap?: boolean;
}

export interface ToolwrightModuleAsyncOptions extends Pick<ModuleMetadata, 'imports'> {
  // `any`, as Nest's own FactoryProvider: the factory's arguments are the resolved `inject` tokens, of any type.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly useFactory: (...args: any[]) => ToolwrightModuleOptions | Promise<ToolwrightModuleOptions>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Nest injection tokens (classes, strings, symbols).
  readonly inject?: any[];
}
