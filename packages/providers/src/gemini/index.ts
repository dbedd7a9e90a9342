/**
 * Google Gemini (`@google/genai`, Gemini API and Vertex AI): one `Tool` holding `functionDeclarations`, each with
 * either `parameters` (the OpenAPI subset, see schema.ts; the default) or `parametersJsonSchema` (JSON Schema,
 * verbatim). Calls are `functionCall` parts with object `args` and an optional `id`; they stream whole (Vertex can
 * stream `partialArgs`, handled too). Results are `functionResponse` parts in one `user` turn, errors under
 * `response.error`. Reference: provider-formats.md §4.
 */
import type { ToolDefinition, ToolResult } from '@toolwright/core';
import { isGeneratedCallId } from '../shared/call-ids';
import { CallBuilder, objectArguments, type ParsedToolCall, type ParseToolCallsOptions } from '../shared/calls';
import type { ToolSource } from '../shared/definitions';
import { importToolDefinition, type ImportOptions } from '../shared/import-definition';
import { isPlainObject, type JsonObject, type JsonSchema } from '../shared/json-schema';
import { withoutDocumentKeywords } from '../shared/lowering/policies';
import { restoreNotes } from '../shared/lowering/reverse';
import type { ToolNameCodec } from '../shared/name-codec';
import { PORTABLE_NAME_PROFILE } from '../shared/name-profiles';
import type { LintFinding, ProviderDescriptor } from '../shared/provider';
import { arrayAt, asRecord, recordAt, stringAt, valueAt } from '../shared/read';
import { errorObject, toJsonValue } from '../shared/results';
import { streamToolCalls, type ToolCallAccumulator } from '../shared/streaming';
import { buildToolSet, type ToolSet, type ToolSetContext, type ToolSetOptions } from '../shared/tool-set';
import { fromGeminiSchema, toGeminiSchema, type GeminiSchema } from './schema';

import { includes, notInVersion, resolveApiVersion } from '../shared/api-versions';
export type { ParsedToolCall, ParseToolCallsOptions } from '../shared/calls';
export type { ToolSet, ToolSetOptions } from '../shared/tool-set';
export { toGeminiSchema, fromGeminiSchema, GEMINI_SCHEMA_KEYWORDS, type GeminiSchema, type GeminiType } from './schema';

/** `FunctionDeclaration`. */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: GeminiSchema;
  parametersJsonSchema?: unknown;
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

/** `parametersJsonSchema` is known from @google/genai 1.9.0 (July 2025). */
const JSON_SCHEMA_FIELD_SINCE = '2025-07-15';

export function createToolSet(source: ToolSource, options: GeminiToolsOptions = {}): ToolSet<GeminiFunctionDeclaration> {
  const field = options.schemaField ?? 'parameters';
  if (field === 'parametersJsonSchema' && !includes(resolveApiVersion('gemini', options.version), JSON_SCHEMA_FIELD_SINCE)) {
    throw notInVersion('gemini', options.version, '`parametersJsonSchema`', JSON_SCHEMA_FIELD_SINCE, "use schemaField: 'parameters' (the OpenAPI-subset Schema), or pin a later version.");
  }
  return buildToolSet({
    provider: 'gemini',
    source,
    profile: PORTABLE_NAME_PROFILE,
    options,
    strict: false,
    lower: ({ name, description, parameters }) => {
      const declaration: GeminiFunctionDeclaration = { name };
      if (description !== undefined) declaration.description = description;
      if (field === 'parameters') declaration.parameters = toGeminiSchema(parameters);
      else declaration.parametersJsonSchema = withoutDocumentKeywords(parameters);
      return declaration;
    },
  });
}

/** The function declarations alone (what goes inside one `Tool`). */
export function toFunctionDeclarations(source: ToolSource, options: GeminiToolsOptions = {}): GeminiFunctionDeclaration[] {
  return createToolSet(source, options).tools;
}

/** `config.tools` for `generateContent`: one `Tool` with every declaration. */
export function toTools(source: ToolSource, options: GeminiToolsOptions = {}): GeminiTool[] {
  return [{ functionDeclarations: toFunctionDeclarations(source, options) }];
}

function partsOf(response: object | readonly object[]): readonly unknown[] {
  if (Array.isArray(response)) return response;
  const candidates = arrayAt(response, 'candidates');
  if (candidates.length > 0) return arrayAt(candidates[0], 'content', 'parts');
  return arrayAt(response, 'parts');
}

/**
 * The calls of a `GenerateContentResponse` (first candidate), a `Content`, or a `Part` array. Calls without an
 * `id` get generated ids (`toolwright_call_…`), matched by order; `toToolResultMessage` leaves those out again.
 */
export function parseToolCalls(response: object | readonly object[], options: ParseToolCallsOptions = {}): ParsedToolCall[] {
  const builder = new CallBuilder(options);
  const calls: ParsedToolCall[] = [];
  for (const part of partsOf(response)) {
    const call = recordAt(part, 'functionCall');
    if (!call) continue;
    calls.push(builder.build(stringAt(call, 'id'), stringAt(call, 'name') ?? '', objectArguments(valueAt(call, 'args') ?? {})));
  }
  return calls;
}

interface OpenPartialCall {
  id: string | undefined;
  name: string;
  args: Record<string, unknown>;
  /** json paths whose string value is still continuing */
  continuing: Set<string>;
}

/**
 * Accumulates `generateContentStream` chunks. Calls normally arrive whole in one chunk and are returned at once;
 * with Vertex's `streamFunctionCallArguments`, partial calls (`partialArgs`, `willContinue`) are assembled by
 * JSON path and returned when a part without `willContinue` closes them.
 */
export function createStreamAccumulator(options: ParseToolCallsOptions = {}): ToolCallAccumulator<object> {
  const builder = new CallBuilder(options);
  let open: OpenPartialCall | undefined;
  const close = (): ParsedToolCall[] => {
    if (!open) return [];
    const call = builder.build(open.id, open.name, open.args);
    open = undefined;
    return [call];
  };
  return {
    get pending() {
      return open ? 1 : 0;
    },
    push(chunk) {
      const completed: ParsedToolCall[] = [];
      for (const part of partsOf(chunk)) {
        const call = recordAt(part, 'functionCall');
        if (!call) continue;
        const partialArgs = arrayAt(call, 'partialArgs');
        const willContinue = valueAt(call, 'willContinue') === true;
        const id = stringAt(call, 'id');
        const name = stringAt(call, 'name');
        if (!willContinue && partialArgs.length === 0 && !open) {
          completed.push(builder.build(id, name ?? '', objectArguments(valueAt(call, 'args') ?? {})));
          continue;
        }
        if (open && ((id && open.id && id !== open.id) || (name && open.name && name !== open.name))) completed.push(...close());
        open ??= { id, name: name ?? '', args: {}, continuing: new Set() };
        if (id) open.id = id;
        if (name) open.name = name;
        const args = asRecord(valueAt(call, 'args'));
        if (args) Object.assign(open.args, args);
        for (const partial of partialArgs) applyPartialArgument(open, partial);
        if (!willContinue) completed.push(...close());
      }
      return completed;
    },
    finish: () => close(),
  };
}

/** Sets one `PartialArg` (`{jsonPath, stringValue | numberValue | boolValue | nullValue, willContinue}`). */
function applyPartialArgument(call: OpenPartialCall, partial: unknown): void {
  const path = stringAt(partial, 'jsonPath');
  if (!path) return;
  const segments = parseJsonPath(path);
  if (!segments || segments.length === 0) return;
  const stringValue = stringAt(partial, 'stringValue');
  let value: unknown;
  if (stringValue !== undefined) value = call.continuing.has(path) ? `${String(readPath(call.args, segments) ?? '')}${stringValue}` : stringValue;
  else if (typeof valueAt(partial, 'numberValue') === 'number') value = valueAt(partial, 'numberValue');
  else if (typeof valueAt(partial, 'boolValue') === 'boolean') value = valueAt(partial, 'boolValue');
  else if (valueAt(partial, 'nullValue') !== undefined) value = null;
  else return;
  writePath(call.args, segments, value);
  if (valueAt(partial, 'willContinue') === true) call.continuing.add(path);
  else call.continuing.delete(path);
}

/** `$.foo.bar[0]['baz']` -> `['foo', 'bar', 0, 'baz']` (the RFC 9535 subset partial arguments use). */
export function parseJsonPath(path: string): Array<string | number> | undefined {
  if (!path.startsWith('$')) return undefined;
  const segments: Array<string | number> = [];
  const pattern = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/gy;
  pattern.lastIndex = 1;
  while (pattern.lastIndex < path.length) {
    const match = pattern.exec(path);
    if (!match) return undefined;
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] !== undefined) segments.push(Number(match[2]));
    else segments.push((match[3] ?? match[4] ?? '').replace(/\\(.)/g, '$1'));
  }
  return segments;
}

function readPath(root: Record<string, unknown>, segments: ReadonlyArray<string | number>): unknown {
  let node: unknown = root;
  for (const segment of segments) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

function writePath(root: Record<string, unknown>, segments: ReadonlyArray<string | number>, value: unknown): void {
  let node: Record<string | number, unknown> = root;
  segments.forEach((segment, index) => {
    if (segment === '__proto__' || segment === 'constructor' || segment === 'prototype') return;
    if (index === segments.length - 1) {
      node[segment] = value;
      return;
    }
    const next = segments[index + 1];
    if (node[segment] === null || typeof node[segment] !== 'object') node[segment] = typeof next === 'number' ? [] : {};
    node = node[segment] as Record<string | number, unknown>;
  });
}

export function streamCalls(chunks: AsyncIterable<object>, options: ParseToolCallsOptions = {}): AsyncGenerator<ParsedToolCall, void, undefined> {
  return streamToolCalls(chunks, createStreamAccumulator(options));
}

/** `Part` with a `FunctionResponse`. */
export interface GeminiFunctionResponsePart {
  functionResponse: { id?: string; name: string; response: JsonObject };
}

/** `Content` carrying function responses. */
export interface GeminiFunctionResponseContent {
  role: 'user';
  parts: GeminiFunctionResponsePart[];
}

export interface GeminiResultOptions {
  /** The tool set (or its codec) the call came from: the response names the function as Gemini knows it. */
  readonly toolSet?: Pick<ToolSetContext, 'codec'>;
  readonly codec?: ToolNameCodec;
}

function providerName(tool: string, options: GeminiResultOptions): string {
  const codec = options.toolSet?.codec ?? options.codec;
  return codec?.has(tool) ? codec.encode(tool) : tool;
}

/**
 * A result as a `functionResponse` part: `response: {output: value}` (an object value is also under `output`, as
 * the SDK documents), errors as `response: {error: {code, message, retryable}}`. Generated ids are left out.
 */
export function toFunctionResponsePart(result: ToolResult, options: GeminiResultOptions = {}): GeminiFunctionResponsePart {
  const response: JsonObject = result.ok ? { output: toJsonValue(result.value) } : { error: errorObject(result.error) };
  const functionResponse: GeminiFunctionResponsePart['functionResponse'] = { name: providerName(result.tool, options), response };
  if (!isGeneratedCallId(result.callId)) functionResponse.id = result.callId;
  return { functionResponse };
}

/** One result as the `user` turn answering its call. */
export function toToolResultMessage(result: ToolResult, options: GeminiResultOptions = {}): GeminiFunctionResponseContent {
  return { role: 'user', parts: [toFunctionResponsePart(result, options)] };
}

/** Parallel results: one `user` turn with one `functionResponse` part per call, in order. */
export function toToolResultMessages(results: readonly ToolResult[], options: GeminiResultOptions = {}): GeminiFunctionResponseContent[] {
  return results.length === 0 ? [] : [{ role: 'user', parts: results.map((result) => toFunctionResponsePart(result, options)) }];
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

function propertyNameFindings(toolSet: ToolSet<unknown>): LintFinding[] {
  const findings: LintFinding[] = [];
  toolSet.tools.forEach((tool, index) => {
    const declaration = tool as GeminiFunctionDeclaration;
    if (!declaration.parameters) return;
    const visit = (schema: GeminiSchema, path: string): void => {
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        const location = path === '' ? name : `${path}.${name}`;
        if (!GEMINI_LIMITS.propertyName.pattern.test(name)) {
          findings.push({
            tool: toolSet.definitions[index]?.name ?? declaration.name,
            provider: 'gemini',
            rule: 'property-name',
            message: `parameter "${location}" does not match Gemini's parameter-name rule ${GEMINI_LIMITS.propertyName.rule}`,
            fix: "rename the parameter (declare the provider's spelling as an alias), or use schemaField: 'parametersJsonSchema'",
            severity: 'error',
          });
        }
        visit(property, location);
      }
      if (schema.items) visit(schema.items, `${path}[]`);
    };
    visit(declaration.parameters, '');
  });
  return findings;
}

export const descriptor: ProviderDescriptor = {
  id: 'gemini',
  label: 'Google Gemini',
  module: '@toolwright/providers/gemini',
  nameProfile: PORTABLE_NAME_PROFILE,
  limits: GEMINI_LIMITS,
  argumentsEncoding: 'object',
  errorChannel: 'response.error',
  supportsStrict: false,
  createToolSet: (source, options) => createToolSet(source, options as GeminiToolsOptions | undefined),
  parametersOf: (tool) => (tool as GeminiFunctionDeclaration).parameters as JsonSchema | undefined,
  nameOf: (tool) => (tool as GeminiFunctionDeclaration).name,
  lint: (_definitions, toolSet) => propertyNameFindings(toolSet),
};

export {
  GeminiChatModel,
  type GeminiModelsClient,
  type GeminiChatModelOptions,
  type GeminiRequestPart,
  type GeminiRequestContent,
  type GeminiRequest,
} from './chat-model';
