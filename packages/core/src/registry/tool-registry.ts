import { checkCommandClass, type CommandClassCheckOptions } from './command-construction';
import { DefinitionError } from '../errors/definition-error';
import { defaultLogger, type Logger } from '../logging/logger';
import { getCommandMetadata } from '../metadata/command-metadata';
import { buildCommandDefinition } from '../validation/build';
import { assertToolOptions } from '../schema/finalize-definition';
import { definitionFromCompact } from '../schema/compact-grammar';
import { definitionFromJsonSchema, type JsonSchemaToolOptions } from '../schema/json-schema-tool';
import { toJsonSchema, type JsonSchemaExportOptions } from '../schema/json-schema-export';
import type { JsonSchemaObject } from '../schema/json-schema-types';
import { checkDtoSynthesis, releaseSchemaDtos, retainSchemaDtos } from '../validation/synthesize-dto';
import type {
  CompactDeclaration,
  JsonSchemaToolDeclaration,
  OutputSchemaOptions,
  ToolDefinition,
  ToolOptions,
} from '../types/definition';
import type { CommandHandler, RegisteredTool, ToolHandler, ToolImplementation } from '../types/handler';
import type { Constructor } from '../types/schema';
import {
  standardSchemaTool,
  type StandardSchemaToolDeclaration,
  type StandardSchemaToolHandler,
} from './standard-schema-tool';
import { registryMessages } from './messages';
import type { ToolSearchIndex, ToolSearchOptions, ToolSearchResult } from '../search/tool-search-index';

export interface ToolRegistryOptions {
  /** What registering a name twice does: `'replace'` (default: logs a warning, the later tool wins) or `'error'`. */
  readonly onDuplicate?: 'replace' | 'error';
  /** Where the duplicate warning goes; default `defaultLogger` (stderr). */
  readonly logger?: Logger;
  /**
   * How a command class is checked as a thing to construct when it is registered (TC39 decorators, constructor
   * parameters without `design:paramtypes`). A container with its own explicit tokens (Nest's `@Inject`) says which
   * parameters it covers.
   */
  readonly commandClassCheck?: CommandClassCheckOptions;
}

/** What changed, as a registry change listener receives it. */
export interface ToolRegistryChange {
  readonly type: 'registered' | 'replaced' | 'unregistered';
  readonly name: string;
  /** The new definition (`registered`, `replaced`) or the removed one (`unregistered`). */
  readonly definition: ToolDefinition;
  /** The registry's version after the change. */
  readonly version: number;
}

export type ToolRegistryListener = (change: ToolRegistryChange) => void;

/** The parameter DTO of a tool that takes no arguments: `@Command({ name, description, params: NoParams })`. */
export class NoParams {}

/**
 * The tools an executor can call, by exact name (O(1), a `Map`), in registration order. Names are kept exactly as
 * given (`decision/propose`, `math.factorial`); provider-safe encoding happens in the provider adapters.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();
  private readonly listeners = new Set<ToolRegistryListener>();
  private readonly onDuplicate: 'replace' | 'error';
  private readonly logger: Logger;
  private readonly commandClassCheck: CommandClassCheckOptions;
  private currentVersion = 0;
  /** Built by the first search after a change (a change bumps `version`). */
  private searchIndex: { readonly version: number; readonly index: ToolSearchIndex } | undefined;

  constructor(options: ToolRegistryOptions = {}) {
    this.onDuplicate = options.onDuplicate ?? 'replace';
    this.logger = options.logger ?? defaultLogger;
    this.commandClassCheck = options.commandClassCheck ?? {};
  }

  /** A registry of the given `@Command` classes, built at the composition root. */
  static from(commands: readonly Constructor[], options?: ToolRegistryOptions): ToolRegistry {
    const registry = new ToolRegistry(options);
    // Every command is built, so one start reports every definition problem (DefinitionError.problems), not the first.
    const problems: DefinitionError[] = [];
    for (const command of commands) {
      try {
        registry.register(command);
      } catch (error) {
        if (!(error instanceof DefinitionError)) throw error;
        problems.push(error);
      }
    }
    if (problems.length > 0) throw DefinitionError.all(problems);
    return registry;
  }

  /** Increments on every change; caches keyed by it (name indexes, provider tool lists) know when to rebuild. */
  get version(): number {
    return this.currentVersion;
  }

  get size(): number {
    return this.tools.size;
  }

  /** Registers a `@Command` class; its definition is built (and checked) now. */
  register(commandClass: Constructor): ToolDefinition {
    if (typeof commandClass === 'function') checkCommandClass(commandClass, this.commandClassCheck);
    const definition = buildCommandDefinition(commandClass);
    // The metadata is read only for a DTO without parameters (the warning's one case).
    const params =
      definition.parameters.properties.length === 0 ? getCommandMetadata(commandClass)?.options.params : undefined;
    if (params !== undefined && params !== NoParams) {
      this.logger.warn(
        registryMessages.emptyParams(
          definition.name,
          commandClass.name,
          typeof params === 'function' ? params.name : String(params),
        ),
        { tool: definition.name, command: commandClass.name },
      );
    }
    return this.registerDefinition(definition, { kind: 'class', command: commandClass as Constructor<CommandHandler> });
  }

  /**
   * Registers a tool described by JSON Schema (e.g. a remote MCP server's tool), run by `handler`. `options` are
   * ToolOptions plus `namespace` (the name becomes `namespace.name`) and the import options.
   */
  registerJsonSchemaTool(
    declaration: JsonSchemaToolDeclaration,
    handler: ToolHandler,
    options?: JsonSchemaToolOptions,
  ): ToolDefinition {
    return this.registerDefinition(definitionFromJsonSchema(declaration, options), { kind: 'function', handler });
  }

  /**
   * Registers a tool whose parameters are a Standard Schema that exposes JSON Schema (zod 4, valibot through
   * `toStandardJsonSchema`, arktype, ...): its JSON Schema runs through the executor's pipeline like any JSON Schema
   * tool, and the schema's own `validate` is the final check; `handler` receives the schema's output.
   */
  registerStandardSchemaTool<Input, Output>(
    declaration: StandardSchemaToolDeclaration<Input, Output>,
    handler: StandardSchemaToolHandler<Output>,
    options?: JsonSchemaToolOptions,
  ): ToolDefinition {
    const tool = standardSchemaTool(declaration, handler, options);
    return this.registerDefinition(tool.definition, { kind: 'function', handler: tool.handler });
  }

  /** Registers a tool from a compact declaration (`{ command_name, description, parameters }`), run by `handler`. */
  registerCompact(
    declaration: CompactDeclaration,
    handler: ToolHandler,
    options?: ToolOptions & OutputSchemaOptions,
  ): ToolDefinition {
    return this.registerDefinition(definitionFromCompact(declaration, options), { kind: 'function', handler });
  }

  /**
   * Registers a built definition with its implementation (the generic path MCP and built-in tools use). A schema
   * class-validator cannot enforce fails now, at registration; the validation DTO itself is synthesized by the first
   * call on the reference path that needs it (the compiled path never does for a JSON-Schema tool).
   */
  registerDefinition(definition: ToolDefinition, implementation: ToolImplementation): ToolDefinition {
    checkDefinition(definition);
    checkImplementation(definition.name, implementation);
    checkDtoSynthesis(definition.parameters);
    const previous = this.tools.get(definition.name);
    if (previous !== undefined && previous.definition !== definition) {
      if (this.onDuplicate === 'error')
        throw registryMessages.duplicateError(definition.name, previous.definition, definition);
      this.logger.warn(registryMessages.duplicateWarning(definition.name, previous.definition, definition), {
        tool: definition.name,
        previous: previous.definition.source.kind,
        replacement: definition.source.kind,
      });
    }
    this.tools.set(
      definition.name,
      Object.freeze({ definition, implementation: Object.freeze({ ...implementation }) }),
    );
    if (previous?.definition !== definition) {
      retainSchemaDtos(definition.parameters);
      if (previous !== undefined) releaseSchemaDtos(previous.definition.parameters);
    }
    this.changed(previous === undefined ? 'registered' : 'replaced', definition);
    return definition;
  }

  /** Removes a tool; `false` when no tool has that name. */
  unregister(name: string): boolean {
    const entry = this.tools.get(name);
    if (entry === undefined) return false;
    this.tools.delete(name);
    releaseSchemaDtos(entry.definition.parameters);
    this.changed('unregistered', entry.definition);
    return true;
  }

  get(name: string): ToolDefinition | undefined {
    return this.tools.get(name)?.definition;
  }

  getEntry(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  /** Every definition, in registration order (a replaced tool keeps its place). */
  list(): ToolDefinition[] {
    return Array.from(this.tools.values(), (entry) => entry.definition);
  }

  /** Every entry (definition and implementation), in registration order. */
  entries(): RegisteredTool[] {
    return [...this.tools.values()];
  }

  /**
   * The registered tools that best match `query` (BM25F over names, titles, descriptions and parameter names and
   * descriptions; docs/tool-search.md), best first, ties broken by name. The index is built by the first search after
   * a change. Tools that share no word with the query are never returned.
   */
  search(query: string, options?: ToolSearchOptions): ToolSearchResult[] {
    if (this.searchIndex?.version !== this.currentVersion)
      this.searchIndex = { version: this.currentVersion, index: searchIndexClass().build(this.list()) };
    return this.searchIndex.index.search(query, options);
  }

  /** Calls `listener` after every change; returns the function that stops it. */
  onChange(listener: ToolRegistryListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** A registered tool's parameters as a draft 2020-12 JSON Schema (context fields never included). */
  toJsonSchema(name: string, options?: JsonSchemaExportOptions): JsonSchemaObject {
    const definition = this.get(name);
    if (definition === undefined) throw registryMessages.unknownTool(name);
    return toJsonSchema(definition, options);
  }

  private changed(type: ToolRegistryChange['type'], definition: ToolDefinition): void {
    this.currentVersion++;
    if (this.listeners.size === 0) return;
    const change: ToolRegistryChange = Object.freeze({
      type,
      name: definition.name,
      definition,
      version: this.currentVersion,
    });
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch (error) {
        this.logger.error(registryMessages.listenerFailed(definition.name), {
          tool: definition.name,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
  }
}

let loadedSearchIndex: typeof ToolSearchIndex | undefined;

/**
 * The search index (with its English stemmer), required by the first search rather than when @toolwright/core is
 * imported: most registries are never searched (measured in docs/decisions/0030-lazy-startup.md).
 */
function searchIndexClass(): typeof ToolSearchIndex {
  loadedSearchIndex ??= (require('../search/tool-search-index') as typeof import('../search/tool-search-index'))
    .ToolSearchIndex;
  return loadedSearchIndex;
}

function checkDefinition(definition: ToolDefinition): void {
  if (typeof definition !== 'object' || definition === null)
    throw registryMessages.invalidDefinition('it is not an object');
  if (typeof definition.name !== 'string' || definition.name.length === 0)
    throw registryMessages.invalidDefinition('its name is not a non-empty string');
  if (definition.parameters?.kind !== 'object')
    throw registryMessages.invalidDefinition(`the parameters of "${definition.name}" are not an object schema`);
  // A definition built elsewhere (MCP, interop) passes the same option table as the three builders.
  assertToolOptions(definition.options ?? {}, { origin: 'registerDefinition', target: definition.name });
}

function checkImplementation(name: string, implementation: ToolImplementation): void {
  if (implementation?.kind === 'class') {
    const prototype = (implementation.command as Function | undefined)?.prototype as { execute?: unknown } | undefined;
    if (typeof prototype?.execute !== 'function')
      throw registryMessages.invalidImplementation(name, 'the command class has no execute method');
    return;
  }
  if (implementation?.kind === 'function') {
    if (typeof implementation.handler !== 'function')
      throw registryMessages.invalidImplementation(name, 'the handler is not a function');
    return;
  }
  throw registryMessages.invalidImplementation(name, 'its kind is neither class nor function');
}
