import type { InjectionToken } from 'tsyringe';
import type { ExecutionContext } from '../types/execution';
import type { ToolInvocationContext } from '../types/handler';
import type { PersonaToolExecutorOptions } from './executor-options';

/** Options for a container-resolved executor: `container.register(EXECUTOR_OPTIONS, { useValue: {...} })`. */
export const EXECUTOR_OPTIONS: InjectionToken<PersonaToolExecutorOptions> = Symbol.for('toolwright:executor-options');
/**
 * Injected into command classes resolved by the tsyringe resolver: the trusted context of the current call (a child
 * container per call, only for commands that ask for it). Portable across containers: `invocation.context`.
 */
export const EXECUTION_CONTEXT: InjectionToken<ExecutionContext> = Symbol.for('toolwright:execution-context');
/** Injected into command classes: the current call's invocation (call id, tool, context, signal, logger). */
export const TOOL_INVOCATION: InjectionToken<ToolInvocationContext> = Symbol.for('toolwright:tool-invocation');
