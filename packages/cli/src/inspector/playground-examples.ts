import type {
  ExecutionContext,
  ObjectSchema,
  ParamSchema,
  PersonaToolExecutor,
  PrepareResult,
  ToolDefinition,
} from '@toolwright/core';
import { canonicalKey, exampleValue } from '@toolwright/core/internal';
import type { ToolRegistryLike } from '@toolwright/providers';
import { readCall } from '../calls/read-call';

/** One example of the playground: text to paste, the shape to read it as, and what the executor does with it. */
export interface PlaygroundExample {
  readonly label: string;
  /** `auto` (a provider response, detected) or `arguments` (bare arguments text for the tool). */
  readonly shape: 'auto' | 'arguments';
  readonly text: string;
  /**
   * What `prepare` answers: `valid` (accepted as sent), `repaired` (accepted after transformations), `refused` (a
   * model-facing error). Checked when the examples are built; `note` says why when it is not what the label claims.
   */
  readonly outcome: 'valid' | 'repaired' | 'refused';
  readonly note?: string;
}

/** The names a provider's codec gives the tool (what a model of that provider sends). */
export interface ProviderNames {
  readonly openai: string;
  readonly anthropic: string;
}

/**
 * The playground's examples for one tool, generated from its own parameters: a valid call (each parameter's example
 * value, from the schema's `examples`, `default` or `enum` when it has them: core's `exampleValue`), a malformed
 * variant of that call that the `safe` policy repairs (another spelling of each key, numbers and booleans as strings,
 * arrays as JSON text, an enum value in capitals, a trusted context field the model must not set, all as Python
 * literals with a trailing comma in a fenced block), the same variant as an Anthropic `tool_use`, and the call cut
 * off. Each is read as the playground reads it and run through `executor.prepare` with the page's default context
 * (no handler, no statistics), so its outcome is the executor's own; a note says why when it is not the expected one.
 */
export async function playgroundExamples(
  executor: PersonaToolExecutor,
  registry: ToolRegistryLike,
  definition: ToolDefinition,
  names: ProviderNames,
  context: ExecutionContext = {},
): Promise<PlaygroundExample[]> {
  const valid = validArguments(definition.parameters);
  const variant = malformedArguments(definition.parameters, valid);
  // The trusted context fields the model tries to set: dropped (and logged) by the executor, never a refusal, so the
  // check below runs without them and logs no security event for an example nobody sent.
  const forged = Object.fromEntries(
    definition.parameters.properties.flatMap((property) =>
      property.context ? [[property.context, 'set-by-the-model']] : [],
    ),
  );
  const fenced = (value: Record<string, unknown>) => `\`\`\`json\n${pythonLiteral(value, true)}\n\`\`\``;
  const validText = JSON.stringify(valid);
  const cutOff = validText.slice(0, Math.max(1, Math.floor(validText.length * 0.6)));
  const anthropic = (input: Record<string, unknown>) =>
    JSON.stringify(
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: names.anthropic, input }] },
      null,
      2,
    );
  const candidates: ReadonlyArray<{
    readonly label: string;
    readonly shape: PlaygroundExample['shape'];
    readonly expected: PlaygroundExample['outcome'];
    readonly text: string;
    readonly checked: string;
  }> = [
    {
      label: 'Valid call (OpenAI)',
      shape: 'auto',
      expected: 'valid',
      text: openaiResponse(names.openai, validText),
      checked: openaiResponse(names.openai, validText),
    },
    {
      label: 'Malformed variant (OpenAI): fenced Python literals, other key spellings, values as strings',
      shape: 'auto',
      expected: 'repaired',
      text: openaiResponse(`functions.${names.openai}`, fenced({ ...variant, ...forged })),
      checked: openaiResponse(`functions.${names.openai}`, fenced(variant)),
    },
    {
      label: 'Malformed variant (Anthropic tool_use)',
      shape: 'auto',
      expected: Object.keys(forged).length > 0 || JSON.stringify(variant) !== validText ? 'repaired' : 'valid',
      text: anthropic({ ...variant, ...forged }),
      checked: anthropic(variant),
    },
    { label: 'Cut off (bare arguments)', shape: 'arguments', expected: 'refused', text: cutOff, checked: cutOff },
  ];
  const examples: PlaygroundExample[] = [];
  for (const { expected, checked, ...example } of candidates) {
    let prepared: PrepareResult;
    try {
      const read = readCall(checked, { registry, shape: example.shape, tool: definition.name, id: 'call_example' });
      prepared = await executor.prepare(read.call, context);
    } catch (error) {
      examples.push({ ...example, outcome: 'refused', note: `not readable: ${(error as Error).message}` });
      continue;
    }
    const outcome = !prepared.ok ? 'refused' : prepared.transformations.length === 0 ? 'valid' : 'repaired';
    const note =
      outcome === expected
        ? undefined
        : prepared.ok
          ? `accepted with ${prepared.transformations.length} transformation(s)`
          : `refused: ${prepared.error.message}`;
    examples.push({ ...example, outcome, ...(note === undefined ? {} : { note }) });
  }
  return examples;
}

/** Every model-facing property of the top level with its example value (core's `exampleValue` gives the required ones). */
function validArguments(parameters: ObjectSchema): Record<string, unknown> {
  const values = exampleValue(parameters) as Record<string, unknown>;
  for (const property of parameters.properties) {
    if (property.context || property.name in values) continue;
    values[property.name] = exampleValue(property.schema, 1);
  }
  return values;
}

/** The valid arguments as a model that needs the `safe` policy's repairs sends them. */
function malformedArguments(parameters: ObjectSchema, valid: Record<string, unknown>): Record<string, unknown> {
  const variant: Record<string, unknown> = {};
  for (const property of parameters.properties) {
    if (property.context || !(property.name in valid)) continue;
    variant[otherSpelling(property.name, parameters)] = malformedValue(property.schema, valid[property.name]);
  }
  return variant;
}

/** A value of `schema` in the form a model often sends instead (one that `safe` converts back exactly). */
function malformedValue(schema: ParamSchema, value: unknown): unknown {
  if (schema.enum !== undefined) {
    const upper = typeof value === 'string' ? value.toUpperCase() : value;
    const clashes = schema.enum.filter((entry) => typeof entry === 'string' && entry.toUpperCase() === upper);
    return typeof value === 'string' && upper !== value && clashes.length === 1 ? upper : value;
  }
  switch (schema.kind) {
    case 'int':
    case 'float':
      return typeof value === 'number' ? String(value) : value;
    case 'bool':
      return value === true ? 'yes' : value === false ? 'no' : value;
    case 'array':
      return Array.isArray(value) ? JSON.stringify(value) : value;
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
      const record = value as Record<string, unknown>;
      const variant: Record<string, unknown> = {};
      for (const property of schema.properties) {
        if (property.name in record) variant[property.name] = malformedValue(property.schema, record[property.name]);
      }
      return variant;
    }
    default:
      return value;
  }
}

/** Another spelling of a key that the key rule maps back (snake_case <-> camelCase, else a capital), when unique. */
function otherSpelling(name: string, parameters: ObjectSchema): string {
  const candidate = /[_-]/.test(name)
    ? name.replace(/[_-]+([a-zA-Z0-9])/g, (_match, letter: string) => letter.toUpperCase())
    : /[A-Z]/.test(name)
      ? name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()
      : name.charAt(0).toUpperCase() + name.slice(1);
  const canonical = canonicalKey(name);
  const unique =
    candidate !== name &&
    canonicalKey(candidate) === canonical &&
    parameters.properties.every(
      (other) =>
        other.name === name ||
        (canonicalKey(other.name) !== canonical && !other.aliases.some((alias) => alias === candidate)),
    );
  return unique ? candidate : name;
}

/** A JSON value written as a Python literal (single quotes, True/False/None), with a trailing comma if asked. */
function pythonLiteral(value: unknown, trailingComma = false): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return /['\\\n\r]/.test(value) ? JSON.stringify(value) : `'${value}'`;
  if (typeof value !== 'object') return JSON.stringify(value);
  const comma = trailingComma ? ',' : '';
  if (Array.isArray(value))
    return value.length === 0 ? '[]' : `[${value.map((item) => pythonLiteral(item)).join(', ')}${comma}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  return `{${entries.map(([key, entry]) => `${pythonLiteral(key)}: ${pythonLiteral(entry)}`).join(', ')}${comma}}`;
}

/** An OpenAI Chat Completions response with one tool call. */
function openaiResponse(name: string, argumentsText: string): string {
  return JSON.stringify(
    {
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_abc123', type: 'function', function: { name, arguments: argumentsText } }],
          },
        },
      ],
    },
    null,
    2,
  );
}
