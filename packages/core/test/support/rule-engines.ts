import 'reflect-metadata';
import {
  PersonaToolExecutor,
  ToolRegistry,
  silentLogger,
  toStandardSchema,
  type CoercionPolicy,
  type ToolDefinition,
} from '@toolwright/core';
import { checkToolResult } from '@toolwright/core/internal';
import { canonicalCheck, NOT_ACCEPTED, type CanonicalCheck } from '@toolwright/core/compile/canonical-check';
import { DEFAULT_LIMITS } from '@toolwright/core/pipeline/limits';

/**
 * Every engine that decides a rule, over one tool: the default compiled path, the reference path
 * (`validation: 'reference'`), Standard Schema's `validate`, the output-schema check (always `strict`), and the
 * canonical check as the shared walk and as the hot tier's own code (accept or refuse only). Each answers for the same
 * arguments object, so a test compares them value by value.
 */
export interface PathAnswer {
  readonly ok: boolean;
  /** The arguments handed on (the handler's `params`), when accepted. */
  readonly value?: unknown;
  /** The refusal's message, when refused. */
  readonly message?: string;
}

export interface EngineAnswers {
  readonly compiled: PathAnswer;
  readonly reference: PathAnswer;
  readonly standard: PathAnswer;
  /** Whether the output-schema check accepts the arguments object as a result. */
  readonly output: boolean;
  /** Whether the shared walk accepts the arguments as already valid and canonical. */
  readonly walk: boolean;
  /** Whether the hot tier's generated code accepts them. */
  readonly hot: boolean;
}

/** JSON text of a value, `-0` kept as `-0` (what a model may send; `JSON.stringify` writes `0`). */
export function jsonText(value: unknown): string {
  if (Object.is(value, -0)) return '-0';
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${jsonText(item)}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** Whether a value survives JSON text unchanged (no NaN, Infinity, undefined, functions). */
export function isJsonValue(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value === 'string' || typeof value === 'boolean' || value === null) return true;
  if (Array.isArray(value)) return value.every(isJsonValue);
  if (typeof value === 'object') return Object.values(value).every(isJsonValue);
  return false;
}

export class RuleEngines {
  readonly definition: ToolDefinition;
  private readonly compiled: PersonaToolExecutor;
  private readonly reference: PersonaToolExecutor;
  private readonly standard: ReturnType<typeof toStandardSchema>;
  private readonly outputDefinition: ToolDefinition;
  private readonly walkCheck: CanonicalCheck;
  private readonly hotCheck: CanonicalCheck;
  private calls = 0;

  /** A JSON-Schema tool `tool` with `parameters`, under `coercion` (the output check is `strict` always). */
  static forJsonSchema(parameters: Record<string, unknown>, coercion: CoercionPolicy): RuleEngines {
    const registry = new ToolRegistry({ logger: silentLogger });
    registry.registerJsonSchemaTool({ name: 'tool', parameters }, (params) => params);
    registry.registerJsonSchemaTool(
      { name: 'output', parameters: { type: 'object', properties: {} }, outputSchema: parameters },
      () => ({}),
    );
    return new RuleEngines(registry, coercion);
  }

  /** A registry holding a tool `tool` (a class command or other) and `output` (for the output check). */
  constructor(
    private readonly registry: ToolRegistry,
    private readonly coercion: CoercionPolicy,
  ) {
    this.definition = registry.get('tool')!;
    const output = registry.get('output');
    this.outputDefinition = output ?? this.definition;
    this.compiled = new PersonaToolExecutor(registry, { logger: silentLogger, telemetry: false, coercion });
    this.reference = new PersonaToolExecutor(registry, {
      logger: silentLogger,
      telemetry: false,
      coercion,
      validation: 'reference',
    });
    this.standard = toStandardSchema(registry, 'tool', { executor: { logger: silentLogger, coercion } });
    const parameters = this.definition.parameters;
    this.walkCheck = canonicalCheck(parameters, DEFAULT_LIMITS, 'walk');
    this.hotCheck = canonicalCheck(parameters, DEFAULT_LIMITS, 'hot');
    if (!this.hotCheck.specialize()) throw new Error('the hot tier did not compile the check');
  }

  async compiledPath(args: Record<string, unknown>): Promise<PathAnswer> {
    return answer(await this.compiled.execute({ id: `c${this.calls++}`, name: 'tool', arguments: jsonText(args) }));
  }

  async referencePath(args: Record<string, unknown>): Promise<PathAnswer> {
    return answer(await this.reference.execute({ id: `r${this.calls++}`, name: 'tool', arguments: jsonText(args) }));
  }

  async standardValidate(args: Record<string, unknown>): Promise<PathAnswer> {
    const result = await this.standard['~standard'].validate(JSON.parse(jsonText(args)));
    if ('issues' in result && result.issues !== undefined)
      return { ok: false, message: result.issues.map((issue) => issue.message).join('\n') };
    return { ok: true, value: (result as { value: unknown }).value };
  }

  outputCheck(args: Record<string, unknown>): boolean {
    return checkToolResult(this.outputDefinition, JSON.parse(jsonText(args))).length === 0;
  }

  walk(args: Record<string, unknown>): boolean {
    return this.walkCheck.accept(JSON.parse(jsonText(args))) !== NOT_ACCEPTED;
  }

  hot(args: Record<string, unknown>): boolean {
    return this.hotCheck.accept(JSON.parse(jsonText(args))) !== NOT_ACCEPTED;
  }

  async all(args: Record<string, unknown>): Promise<EngineAnswers> {
    return {
      compiled: await this.compiledPath(args),
      reference: await this.referencePath(args),
      standard: await this.standardValidate(args),
      output: this.outputCheck(args),
      walk: this.walk(args),
      hot: this.hot(args),
    };
  }
}

function answer(result: { ok: boolean; value?: unknown; error?: { message: string } }): PathAnswer {
  return result.ok ? { ok: true, value: result.value } : { ok: false, message: result.error?.message };
}
