import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { Command } from '../decorators/command.decorator';
import { DefinitionError } from '../errors/definition-error';
import { PersonaToolExecutor } from '../execution/persona-tool-executor';
import type { PersonaToolExecutorOptions } from '../execution/executor-options';
import { silentLogger } from '../logging/logger';
import { ToolRegistry } from '../registry/tool-registry';
import { toJsonSchema } from '../schema/json-schema-export';
import type { ExecutionContext, ToolErrorPayload } from '../types/execution';
import type { Constructor } from '../types/schema';

/**
 * A Standard Schema v1 (`~standard.validate`) that is also a Standard JSON Schema (`~standard.jsonSchema`): what
 * `toStandardSchema` returns, for any library that takes one (the AI SDK's `inputSchema`, an MCP tool, tRPC, forms).
 */
export interface ToolwrightStandardSchema<Input = Record<string, unknown>, Output = Input> {
  /** The Standard Schema properties: `version: 1`, `vendor: 'toolwright'`, `validate`, `jsonSchema`. */
  readonly '~standard': StandardSchemaV1.Props<Input, Output> & StandardJSONSchemaV1.Props<Input, Output>;
}

/** What `toStandardSchema` takes besides the DTO or the tool. */
export interface StandardSchemaOptions {
  /**
   * The trusted context each validation runs with: `@FromContext` fields are filled from it, never from the input (a
   * value the input gives for one is dropped, as the executor drops it). Without it, a required context field fails.
   * On the validated value the context fields are not enumerable: the handler reads them (`dto.sessionId`), but the
   * value's JSON, its spread and its keys are the model's own repaired arguments, so a framework that stores the value
   * as the call's input (the AI SDK, in the messages it sends the model next) never sends the context back to a model.
   */
  readonly context?: ExecutionContext;
  /** The executor's options for the validation (coercion policy, limits, logger; default: silent). */
  readonly executor?: PersonaToolExecutorOptions;
}

const DIALECTS = ['draft-2020-12', 'draft-07'] as const;

/**
 * A params DTO class, or a registered tool, as a Standard Schema: `validate` runs toolwright's own steps 3-6 on the
 * input (the executor's `prepare`: read, normalize with the repairs the policy allows, drop model-supplied context,
 * inject the trusted context of `options.context`, validate) and answers with the prepared parameters (the DTO
 * instance for a class) or the issues, each with its path and the message the model would read. `jsonSchema.input`
 * is the tool's parameters as JSON Schema (`draft-2020-12` or `draft-07`; context fields never appear).
 */
export function toStandardSchema<T extends object>(
  dto: Constructor<T>,
  options?: StandardSchemaOptions,
): ToolwrightStandardSchema<Record<string, unknown>, T>;
/** A registered tool's parameters as a Standard Schema (see the overload above). */
export function toStandardSchema(
  registry: ToolRegistry,
  tool: string,
  options?: StandardSchemaOptions,
): ToolwrightStandardSchema<Record<string, unknown>, Record<string, unknown>>;
export function toStandardSchema(
  source: Constructor | ToolRegistry,
  toolOrOptions?: string | StandardSchemaOptions,
  maybeOptions?: StandardSchemaOptions,
): ToolwrightStandardSchema<Record<string, unknown>, unknown> {
  let registry: ToolRegistry;
  let tool: string;
  let options: StandardSchemaOptions;
  if (source instanceof ToolRegistry) {
    if (typeof toolOrOptions !== 'string' || !source.has(toolOrOptions)) {
      throw new DefinitionError(`the registry has no tool named ${JSON.stringify(toolOrOptions)}.`, {
        target: 'toStandardSchema',
        fix: 'pass the name of a registered tool: toStandardSchema(registry, "tool_name").',
      });
    }
    registry = source;
    tool = toolOrOptions;
    options = maybeOptions ?? {};
  } else {
    options = (typeof toolOrOptions === 'object' ? toolOrOptions : undefined) ?? {};
    ({ registry, tool } = dtoRegistry(source, options));
  }
  const executor = new PersonaToolExecutor(registry, { logger: silentLogger, ...options.executor });
  const context = options.context ?? {};
  const definition = registry.get(tool)!;
  const contextFields = definition.parameters.properties
    .filter((property) => property.context !== undefined)
    .map((property) => property.name);
  const input = (settings: StandardJSONSchemaV1.Options): Record<string, unknown> => {
    if (!(DIALECTS as readonly string[]).includes(settings?.target)) {
      throw new Error(
        `toolwright exports JSON Schema as ${DIALECTS.join(' or ')}, not ${JSON.stringify(settings?.target)}.`,
      );
    }
    const schema = toJsonSchema(definition) as Record<string, unknown>;
    return settings.target === 'draft-07' ? toDraft07(schema) : schema;
  };
  return Object.freeze({
    '~standard': Object.freeze({
      version: 1 as const,
      vendor: 'toolwright',
      validate: async (value: unknown): Promise<StandardSchemaV1.Result<unknown>> => {
        const prepared = await executor.prepare(
          { id: 'standard-schema', name: tool, arguments: value as Record<string, unknown> | string },
          context,
        );
        return prepared.ok
          ? { value: withHiddenContext(prepared.params, contextFields) }
          : { issues: standardIssues(prepared.error) };
      },
      jsonSchema: Object.freeze({
        input,
        output: input,
      }),
    }),
  });
}

/**
 * The validated value with its trusted-context fields made non-enumerable (in place: the value is this validation's
 * own): still there for the handler, left out of `JSON.stringify`, `Object.keys`, spreads and `structuredClone`.
 */
function withHiddenContext(value: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  for (const field of fields) {
    if (!Object.hasOwn(value, field)) continue;
    Object.defineProperty(value, field, {
      value: value[field],
      enumerable: false,
      writable: true,
      configurable: true,
    });
  }
  return value;
}

/** A registry holding one command whose parameters are `dto` (a command that never runs: only `prepare` is used). */
function dtoRegistry(dto: Constructor, options: StandardSchemaOptions): { registry: ToolRegistry; tool: string } {
  if (typeof dto !== 'function') {
    throw new DefinitionError('takes a params DTO class, or a registry and a tool name.', {
      target: 'toStandardSchema',
      fix: 'pass the class: toStandardSchema(CreateOrderParams), or toStandardSchema(registry, "create_order").',
    });
  }
  const tool = dto.name !== '' ? dto.name : 'params';
  const command = {
    [`${tool}StandardSchema`]: class {
      execute(params: unknown): unknown {
        return params;
      }
    },
  }[`${tool}StandardSchema`]!;
  Command({ name: tool, description: '', params: dto })(command);
  const registry = new ToolRegistry({ logger: options.executor?.logger ?? silentLogger });
  registry.register(command);
  return { registry, tool };
}

/** The executor's refusal as Standard Schema issues: one per argument issue, or the message alone. */
function standardIssues(error: ToolErrorPayload): StandardSchemaV1.Issue[] {
  if (error.issues.length === 0) return [{ message: error.message }];
  return error.issues.map((issue) => {
    const path = pathSegments(issue.path);
    return path.length === 0 ? { message: issue.message } : { message: issue.message, path };
  });
}

/** `options[1].label` -> `['options', 1, 'label']`. */
function pathSegments(path: string): PropertyKey[] {
  const segments: PropertyKey[] = [];
  for (const match of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    segments.push(match[2] !== undefined ? Number(match[2]) : match[1]!);
  }
  return segments;
}

/** The draft 2020-12 export as draft 7: `dependentRequired` (the only 2020-12 keyword it writes) becomes `dependencies`. */
function toDraft07(schema: Record<string, unknown>): Record<string, unknown> {
  const { dependentRequired, ...rest } = schema;
  return dependentRequired === undefined ? rest : { ...rest, dependencies: dependentRequired };
}
