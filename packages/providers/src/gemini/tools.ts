/**
 * gemini: definitions out (lowering) and back in (`fromTool`).
 * The wire format is summarized in `./index.ts` (provider-formats.md §4).
 */
import { toJsonSchema, type ToolDefinition } from '@toolwright/core';
import type { ToolSource } from '../shared/definitions';
import { importToolDefinition, type ImportOptions } from '../shared/import-definition';
import { isPlainObject, type JsonSchema } from '../shared/json-schema';
import { withoutDocumentKeywords } from '../shared/lowering/policies';
import { restoreNotes } from '../shared/lowering/reverse';
import { PORTABLE_NAME_PROFILE } from '../shared/name-profiles';
import { buildToolSet, toolsAlone, type ToolRestriction, type ToolSet, type ToolSetOptions } from '../shared/tool-set';
import { fromGeminiSchema, toGeminiSchema, type GeminiSchema } from './schema';
import { includes, notInVersion, resolveApiVersion } from '../shared/api-versions';
export type { ParsedToolCall, ParseToolCallsOptions } from '../shared/calls';
export type { ToolSet, ToolSetOptions, ToolRestriction } from '../shared/tool-set';
export { toGeminiSchema, fromGeminiSchema, GEMINI_SCHEMA_KEYWORDS, type GeminiSchema, type GeminiType } from './schema';

/** `FunctionDeclaration`. */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: GeminiSchema;
  parametersJsonSchema?: unknown;
  /** What the function returns (a tool with an output schema), in the same form as its parameters. */
  response?: GeminiSchema;
  responseJsonSchema?: unknown;
}

/** `Tool` holding function declarations. */
export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

export interface GeminiToolsOptions extends ToolSetOptions {
  /**
   * `parameters` (default): the OpenAPI-subset Schema, accepted by the Gemini API and Vertex AI.
   * `parametersJsonSchema`: the canonical JSON Schema, verbatim (richer; its accepted subset is unverified, §4.1b).
   */
  readonly schemaField?: 'parameters' | 'parametersJsonSchema';
}

/** §4.1: "Maximum 512 function declarations"; parameter names `^[A-Za-z_][A-Za-z0-9_]{0,63}$` in `parameters`. */
export const GEMINI_LIMITS = Object.freeze({
  maxTools: 512,
  rootUnionsRejected: false,
  propertyName: Object.freeze({ pattern: /^[A-Za-z_][A-Za-z0-9_]{0,63}$/, rule: '^[A-Za-z_][A-Za-z0-9_]{0,63}$' }),
});

/** `ToolConfig` restricting the calls to some of the declared functions. */
export interface GeminiToolConfig {
  functionCallingConfig: { mode: 'VALIDATED' | 'ANY'; allowedFunctionNames: string[] };
}

/**
 * The `toolConfig` that restricts the calls to a tool set's `allow` (every function still declared), or `undefined`
 * when the set has no such restriction. `allowedFunctionNames` is only honoured in modes `ANY` and `VALIDATED` (the
 * SDK's `FunctionCallingConfigMode`; `AUTO` does not take it): `allowMode: 'auto'` sends `VALIDATED` (the model calls
 * one of the functions or answers in text, and its calls are checked against their schemas by constrained decoding),
 * `allowMode: 'required'` sends `ANY` (the model must call one of them).
 */
export function allowedFunctionsConfig(toolSet: {
  readonly restriction?: ToolRestriction;
}): GeminiToolConfig | undefined {
  const restriction = toolSet.restriction;
  if (restriction?.by !== 'provider') return undefined;
  return {
    functionCallingConfig: {
      mode: restriction.mode === 'required' ? 'ANY' : 'VALIDATED',
      allowedFunctionNames: [...restriction.providerNames],
    },
  };
}

/** `parametersJsonSchema` is known from @google/genai 1.9.0 (July 2025). */
const JSON_SCHEMA_FIELD_SINCE = '2025-07-15';

export function createToolSet(
  source: ToolSource,
  options: GeminiToolsOptions = {},
): ToolSet<GeminiFunctionDeclaration> {
  const field = options.schemaField ?? 'parameters';
  if (
    field === 'parametersJsonSchema' &&
    !includes(resolveApiVersion('gemini', options.version), JSON_SCHEMA_FIELD_SINCE)
  ) {
    throw notInVersion(
      'gemini',
      options.version,
      '`parametersJsonSchema`',
      JSON_SCHEMA_FIELD_SINCE,
      "use schemaField: 'parameters' (the OpenAPI-subset Schema), or pin a later version.",
    );
  }
  return buildToolSet({
    provider: 'gemini',
    source,
    profile: PORTABLE_NAME_PROFILE,
    options,
    strict: false,
    restriction: { maxTools: GEMINI_LIMITS.maxTools },
    lower: ({ definition, name, description, parameters }) => {
      const declaration: GeminiFunctionDeclaration = { name };
      if (description !== undefined) declaration.description = description;
      if (field === 'parameters') declaration.parameters = toGeminiSchema(parameters);
      else declaration.parametersJsonSchema = withoutDocumentKeywords(parameters);
      // A declared output schema goes where Gemini takes the function's response type, in the parameters' form.
      if (definition.output !== undefined) {
        const output = toJsonSchema(definition.output) as JsonSchema;
        if (field === 'parameters') declaration.response = toGeminiSchema(output);
        else declaration.responseJsonSchema = withoutDocumentKeywords(output);
      }
      return declaration;
    },
  });
}

/** The function declarations alone (what goes inside one `Tool`). */
export function toFunctionDeclarations(
  source: ToolSource,
  options: GeminiToolsOptions = {},
): GeminiFunctionDeclaration[] {
  return toolsAlone(createToolSet(source, options), 'toFunctionDeclarations');
}

/** `config.tools` for `generateContent`: one `Tool` with every declaration. */
export function toTools(source: ToolSource, options: GeminiToolsOptions = {}): GeminiTool[] {
  return [{ functionDeclarations: toFunctionDeclarations(source, options) }];
}

/** Imports a function declaration (either schema field) into the IR, undoing this package's lowering. */
export function fromTool(declaration: GeminiFunctionDeclaration, options: ImportOptions = {}): ToolDefinition {
  const parameters: JsonSchema =
    declaration.parameters !== undefined
      ? fromGeminiSchema(declaration.parameters)
      : isPlainObject(declaration.parametersJsonSchema)
        ? restoreNotes(declaration.parametersJsonSchema)
        : { type: 'object', properties: {}, additionalProperties: false };
  return importToolDefinition(declaration.name, declaration.description, parameters, options);
}
