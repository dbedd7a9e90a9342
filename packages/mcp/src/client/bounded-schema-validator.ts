import { DEFAULT_JSON_SCHEMA_LIMITS, type JsonSchemaLimits } from '@toolwright/core';
import { hasNestedQuantifier, linearEngineProblem, linearRegExpEngine } from '@toolwright/core/internal';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
/** Largest serialized size of a schema from a server, in bytes, before anything compiles it. */
export const MAX_UNTRUSTED_SCHEMA_BYTES = 64 * 1024;

/**
 * Why an untrusted JSON Schema must not be compiled, or undefined when it is within bounds: nesting depth, node
 * count and serialized size, and every regular expression it carries (`pattern`, `patternProperties` keys) for
 * length, nested quantifiers and constructs the linear-time engine cannot run (ReDoS). Iterative: a hostile depth cannot overflow the stack here.
 */
export function untrustedSchemaProblem(
  schema: unknown,
  limits: JsonSchemaLimits = DEFAULT_JSON_SCHEMA_LIMITS,
): string | undefined {
  const stack: Array<{ readonly value: unknown; readonly depth: number; readonly path: string }> = [
    { value: schema, depth: 0, path: '#' },
  ];
  let nodes = 0;
  let bytes = 0;
  while (stack.length > 0) {
    const { value, depth, path } = stack.pop()!;
    nodes++;
    if (nodes > limits.maxNodes) return `it has more than ${limits.maxNodes} nodes`;
    if (depth > limits.maxDepth) return `it is nested deeper than ${limits.maxDepth} levels (at ${path})`;
    if (typeof value === 'string') bytes += value.length + 2;
    else if (value === null || typeof value !== 'object') bytes += 8;
    if (bytes > MAX_UNTRUSTED_SCHEMA_BYTES) return `it is larger than ${MAX_UNTRUSTED_SCHEMA_BYTES} bytes`;
    if (value === null || typeof value !== 'object') continue;
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      bytes += key.length + 4;
      const child = record[key];
      const childPath = `${path}/${key}`;
      if (key === 'pattern' && typeof child === 'string') {
        const problem = patternProblem(child, limits);
        if (problem) return `its pattern at ${childPath} ${problem}`;
      }
      if (key === 'patternProperties' && child !== null && typeof child === 'object') {
        for (const pattern of Object.keys(child)) {
          const problem = patternProblem(pattern, limits);
          if (problem) return `its patternProperties key at ${childPath} ${problem}`;
        }
      }
      stack.push({ value: child, depth: depth + 1, path: childPath });
    }
  }
  return undefined;
}

function patternProblem(pattern: string, limits: JsonSchemaLimits): string | undefined {
  if (pattern.length > limits.maxPatternLength) return `is longer than ${limits.maxPatternLength} characters`;
  if (hasNestedQuantifier(pattern))
    return `has a nested quantifier (exponential backtracking): ${JSON.stringify(pattern.slice(0, 80))}`;
  const linear = linearEngineProblem(pattern);
  if (linear !== undefined)
    return `cannot run on the linear-time engine (${linear}): ${JSON.stringify(pattern.slice(0, 80))}`;
  return undefined;
}

/**
 * An Ajv configured as the MCP SDK configures its own (formats, all errors, not strict), except that every `pattern`
 * and `patternProperties` key runs on the linear-time engine: a server's own result cannot make its validation
 * backtrack for minutes, which no timeout could interrupt (validation is synchronous).
 */
export function linearTimeAjv(): Ajv {
  const engine = (pattern: string, flags: string) => {
    const matcher = linearRegExpEngine(pattern, flags);
    // Ajv keys its compiled patterns by `toString()`.
    return { test: (value: string) => matcher.test(value), toString: () => `/${pattern}/${flags}` };
  };
  // `code` is what Ajv's standalone code generation would print; this Ajv never generates standalone code.
  const regExp = Object.assign(engine, { code: 'require("@toolwright/core").linearRegExpEngine' });
  const ajv = new Ajv({
    strict: false,
    validateFormats: true,
    validateSchema: false,
    allErrors: true,
    code: { regExp },
  });
  addFormats(ajv);
  return ajv;
}

/**
 * The SDK client compiles every tool's `outputSchema` with Ajv as soon as it lists the tools. Schemas from a server
 * are untrusted (Ajv treats schemas as code), so this validator bounds them first; a schema over the bounds is not
 * compiled, and a result checked against it fails with the reason.
 */
export class BoundedJsonSchemaValidator implements jsonSchemaValidator {
  constructor(
    private readonly limits: JsonSchemaLimits,
    private readonly onRefused: (problem: string) => void,
    private readonly inner: jsonSchemaValidator = new AjvJsonSchemaValidator(linearTimeAjv()),
  ) {}

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const problem = untrustedSchemaProblem(schema, this.limits);
    if (problem === undefined) return this.inner.getValidator<T>(schema);
    this.onRefused(problem);
    const errorMessage = `the output schema was refused: ${problem}`;
    return () => ({ valid: false, data: undefined, errorMessage });
  }
}
