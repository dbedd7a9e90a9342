import { Global, Module, Scope, type DynamicModule, type Provider } from '@nestjs/common';
import { DiscoveryModule, REQUEST } from '@nestjs/core';
import { PersonaToolExecutor, ToolRegistry, type Constructor, type Logger } from '@toolwright/core';
import {
  NEST_SELF_DECLARED_DEPS,
  TOOLWRIGHT_APPROVAL_STORE,
  TOOL_CONTEXT,
  TOOL_INVOCATION,
  TOOLWRIGHT_LOGGER,
  TOOLWRIGHT_MODULE_OPTIONS,
} from './constants';
import { NestCommandResolver } from './nest-command-resolver';
import { NestLoggerAdapter } from './nest-logger-adapter';
import { ProviderTools } from './provider-tools';
import { toolCallRequestOf } from './tool-call-request';
import { ToolwrightExplorer } from './toolwright-explorer';
import type { ToolwrightModuleAsyncOptions, ToolwrightModuleOptions } from './toolwright-options';

/**
 * The toolwright module: global, so `ToolRegistry`, `PersonaToolExecutor` and `ProviderTools` can be injected
 * anywhere by class. Every provider whose class carries `@Command` is discovered at bootstrap and run through Nest's
 * container (singletons as Nest's singletons, request-scoped and transient commands per call).
 */
@Global()
@Module({})
export class ToolwrightModule {
  static forRoot(options: ToolwrightModuleOptions = {}): DynamicModule {
    return ToolwrightModule.build({ provide: TOOLWRIGHT_MODULE_OPTIONS, useValue: options }, []);
  }

  static forRootAsync(options: ToolwrightModuleAsyncOptions): DynamicModule {
    return ToolwrightModule.build(
      { provide: TOOLWRIGHT_MODULE_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] },
      options.imports ?? [],
    );
  }

  private static build(
    optionsProvider: Provider,
    imports: NonNullable<ToolwrightModuleAsyncOptions['imports']>,
  ): DynamicModule {
    const providers: Provider[] = [
      optionsProvider,
      {
        provide: TOOLWRIGHT_LOGGER,
        useFactory: (options: ToolwrightModuleOptions): Logger => options.logger ?? new NestLoggerAdapter(),
        inject: [TOOLWRIGHT_MODULE_OPTIONS],
      },
      {
        provide: ToolRegistry,
        useFactory: (options: ToolwrightModuleOptions, logger: Logger) =>
          new ToolRegistry({
            onDuplicate: options.onDuplicate ?? 'error',
            logger,
            commandClassCheck: { explicitlyInjected: nestExplicitlyInjected },
          }),
        inject: [TOOLWRIGHT_MODULE_OPTIONS, TOOLWRIGHT_LOGGER],
      },
      NestCommandResolver,
      {
        provide: PersonaToolExecutor,
        useFactory: (
          registry: ToolRegistry,
          options: ToolwrightModuleOptions,
          logger: Logger,
          resolver: NestCommandResolver,
        ) =>
          // Every tool compiled as it is registered (the explorer registers them at module init): no request compiles.
          new PersonaToolExecutor(registry, {
            compile: 'registration',
            ...options.executor,
            logger,
            resolveCommand: resolver.resolve,
          }),
        inject: [ToolRegistry, TOOLWRIGHT_MODULE_OPTIONS, TOOLWRIGHT_LOGGER, NestCommandResolver],
      },
      {
        provide: TOOLWRIGHT_APPROVAL_STORE,
        useFactory: (executor: PersonaToolExecutor) => executor.approvals.store,
        inject: [PersonaToolExecutor],
      },
      {
        provide: TOOL_CONTEXT,
        scope: Scope.REQUEST,
        useFactory: (request: unknown) => toolCallRequestOf(request, 'the tool context (@InjectToolContext())').context,
        inject: [REQUEST],
      },
      {
        provide: TOOL_INVOCATION,
        scope: Scope.REQUEST,
        useFactory: (request: unknown) =>
          toolCallRequestOf(request, 'the tool invocation (@InjectToolInvocation())').invocation,
        inject: [REQUEST],
      },
      ProviderTools,
      ToolwrightExplorer,
    ];
    return {
      module: ToolwrightModule,
      global: true,
      imports: [DiscoveryModule, ...imports],
      providers,
      exports: [
        ToolRegistry,
        PersonaToolExecutor,
        TOOLWRIGHT_APPROVAL_STORE,
        ProviderTools,
        ToolwrightExplorer,
        TOOL_CONTEXT,
        TOOL_INVOCATION,
        TOOLWRIGHT_LOGGER,
      ],
    };
  }
}

/** Constructor parameters with Nest's `@Inject(token)`: they need no `design:paramtypes`. */
function nestExplicitlyInjected(commandClass: Constructor): ReadonlySet<number> {
  const declared = (Reflect as unknown as { getMetadata(key: string, target: object): unknown }).getMetadata(
    NEST_SELF_DECLARED_DEPS,
    commandClass,
  );
  return new Set(Array.isArray(declared) ? declared.map((entry: { index: number }) => entry.index) : []);
}
