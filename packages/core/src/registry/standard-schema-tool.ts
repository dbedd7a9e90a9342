import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { DefinitionError } from '../errors/definition-error';
import { InvalidArgumentsError } from '../errors/invalid-arguments-error';
import { messages } from '../pipeline/messages';
import { definitionFromJsonSchema, type JsonSchemaToolOptions } from '../schema/json-schema-tool';
import type { ToolDefinition } from '../types/definition';
import type { ValidationIssue } from '../types/execution';
import type { ToolHandler, ToolInvocationContext } from '../types/handler';

/** A schema of any Standard Schema library that also exposes JSON Schema (zod 4, valibot, arktype, ...). */
export type StandardJsonSchemaValidator<Input = unknown, Output = Input> = StandardSchemaV1<Input, Output> &
  StandardJSONSchemaV1<Input, Output>;

/** What `registerStandardSchemaTool` takes: the tool's name and description, and its parameters' schema. */
export interface StandardSchemaToolDeclaration<Input = unknown, Output = Input> {
  /** The tool name, kept exactly. */
  readonly name: string;
  /** What the tool does, for the model. */
  readonly description?: string;
  /** An object schema of a Standard Schema library that exposes JSON Schema (`~standard.jsonSchema`). */
  readonly schema: StandardJsonSchemaValidator<Input, Output>;
}

/** A handler of a Standard Schema tool: it receives the schema's own output (its transforms applied). */
export type StandardSchemaToolHandler<Output> = (params: Output, invocation: ToolInvocationContext) => unknown;

/**
 * The definition and handler of a Standard Schema tool: the schema's draft 2020-12 JSON Schema is imported like any
 * JSON Schema tool (so the executor normalizes and checks the arguments with its own pipeline: repairs, messages,
 * trusted context), and the schema's own `validate` is the final check, run on the prepared arguments before the
 * handler: its issues are an INVALID_ARGUMENTS result for the model, its output is what the handler receives.
 */
export function standardSchemaTool<Input, Output>(
  declaration: StandardSchemaToolDeclaration<Input, Output>,
  handler: StandardSchemaToolHandler<Output>,
  options: JsonSchemaToolOptions = {},
): { readonly definition: ToolDefinition; readonly handler: ToolHandler } {
  const name = typeof declaration?.name === 'string' ? declaration.name : String(declaration?.name);
  const standard = (declaration?.schema as Partial<StandardJsonSchemaValidator> | undefined)?.['~standard'];
  if (typeof standard?.validate !== 'function' || typeof standard.jsonSchema?.input !== 'function') {
    throw new DefinitionError('its schema is not a Standard Schema that exposes JSON Schema.', {
      target: `registerStandardSchemaTool '${name}'`,
      property: 'schema',
      fix: 'pass a zod 4 schema, a valibot schema wrapped by toStandardJsonSchema (@valibot/to-json-schema), an arktype type, or another library implementing ~standard.validate and ~standard.jsonSchema.',
    });
  }
  if (typeof handler !== 'function') {
    throw new DefinitionError('its handler is not a function.', {
      target: `registerStandardSchemaTool '${name}'`,
      fix: 'pass the handler as the second argument: registerStandardSchemaTool({ name, schema }, (params) => ...).',
    });
  }
  let parameters: Record<string, unknown>;
  try {
    parameters = standard.jsonSchema.input({ target: 'draft-2020-12' });
  } catch (error) {
    throw new DefinitionError(
      `its schema (${standard.vendor}) cannot be converted to JSON Schema: ${error instanceof Error ? error.message : String(error)}.`,
      {
        target: `registerStandardSchemaTool '${name}'`,
        property: 'schema',
        fix: 'use types the library can express in JSON Schema (no transforms on the input side, no custom types).',
      },
    );
  }
  const definition = definitionFromJsonSchema(
    { name, ...(declaration.description !== undefined ? { description: declaration.description } : {}), parameters },
    options,
  );
  const validate = standard.validate.bind(standard) as StandardSchemaV1.Props<Input, Output>['validate'];
  const tool = definition.name;
  const run: ToolHandler = async (params, invocation) => {
    const checked = await validate(params);
    if (checked.issues !== undefined) {
      const issues = checked.issues.map(fromStandardIssue);
      throw new InvalidArgumentsError(messages.invalidArguments(tool, issues), { issues });
    }
    return handler(checked.value, invocation);
  };
  return { definition, handler: run };
}

/** A Standard Schema issue as a toolwright issue (its path as `a.b[0]`). */
function fromStandardIssue(issue: StandardSchemaV1.Issue): ValidationIssue {
  let path = '';
  for (const segment of issue.path ?? []) {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    path = typeof key === 'number' ? `${path}[${key}]` : path === '' ? String(key) : `${path}.${String(key)}`;
  }
  return { path, rule: 'schema', expected: 'a value the schema accepts', message: issue.message };
}
