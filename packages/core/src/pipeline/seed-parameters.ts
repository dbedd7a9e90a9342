import type { ToolDefinition } from '../types/definition';
import { CONTEXT_KEY_PROPERTIES, type DataPacket, type ExecutionContext } from '../types/execution';
import type { ContextKey } from '../types/schema';
import { injectContext } from './context-injection';
import { extractFromContext, isGivenValue, packetsLatestFirst } from './data-packets';
import { canonicalKey } from './keys';

/**
 * Data Machine's flat parameter object (its `ToolParameters`), for handlers written against it:
 *
 * | key | value |
 * |---|---|
 * | `session_id`, `job_id`, `flow_step_id`, `source_url`, `image_url`, `persona` | the trusted context's value, when set |
 * | `handler_config` | the context's `handlerConfig`, else `{}` |
 * | `data` | the data packets, latest first (Data Machine's order), else `[]` |
 * | `content`, `title` | the model's value when non-empty, else the latest packet's `content.body` / `content.title`, else `null` |
 * | `tool_name`, `tool_definition` | the tool's registry name and its definition (when a definition is given) |
 * | every other key | the model's (normalized) argument |
 *
 * The trusted-context rule holds: a model argument under a context key, `handler_config`, `tool_name` or
 * `tool_definition` (in any spelling: `sessionId`, `Session-Id`) never survives; a model's `data` survives only when
 * the tool declares a `data` parameter of its own (Data Machine's `make_api_request`).
 */

/** What a seed-003 flat object holds (the model's arguments are the other keys). */
export interface SeedParameters {
  session_id?: string;
  job_id?: string;
  flow_step_id?: string;
  source_url?: string;
  image_url?: string;
  handler_config: Readonly<Record<string, unknown>>;
  data: unknown;
  content: unknown;
  title: unknown;
  tool_name?: string;
  tool_definition?: ToolDefinition;
  [key: string]: unknown;
}

const CONTEXT_KEYS = Object.keys(CONTEXT_KEY_PROPERTIES) as ContextKey[];
const TRUSTED = new Set([...CONTEXT_KEYS, 'tool_name', 'tool_definition'].map(canonicalKey));

function declares(definition: ToolDefinition | undefined, name: string): boolean {
  return (
    definition?.parameters.properties.some((property) => property.name === name && property.context === undefined) ??
    false
  );
}

/**
 * The flat object of Data Machine's `buildParameters($ai_tool_parameters, $unified_parameters, $tool_definition)`:
 * `args` are the model's (normalized) arguments, `context` the trusted context (its packets and `session_id` are the
 * engine's unified parameters), `definition` the tool (for `tool_name` / `tool_definition`).
 */
export function buildParameters(
  args: Readonly<Record<string, unknown>>,
  context: ExecutionContext,
  definition?: ToolDefinition,
): SeedParameters {
  const packets: readonly DataPacket[] = packetsLatestFirst(context);
  const flat: SeedParameters = {
    handler_config: context.handlerConfig ?? {},
    data: [...packets],
    content: null,
    title: null,
  };
  for (const key of CONTEXT_KEYS) {
    const value = context[CONTEXT_KEY_PROPERTIES[key]];
    if (value !== undefined && key !== 'handler_config') (flat as Record<string, unknown>)[key] = value;
  }
  if (definition !== undefined) {
    flat.tool_name = definition.name;
    flat.tool_definition = definition;
  }
  for (const key of Object.keys(args)) {
    if (TRUSTED.has(canonicalKey(key))) continue;
    if (key === 'data' && !declares(definition, 'data')) continue;
    if (key === 'content' || key === 'title') continue;
    flat[key] = args[key];
  }
  for (const source of ['content', 'title'] as const) {
    const given = args[source];
    if (isGivenValue(given)) flat[source] = given;
    else flat[source] = extractFromContext(context, source) ?? given ?? null;
  }
  return flat;
}

/**
 * Data Machine's `buildForHandlerTool(...)`: the same flat object for one tool (so with `tool_name` and
 * `tool_definition`; the engine parameters `source_url`, `image_url`, `job_id`, `flow_step_id` and `handler_config`
 * come from the context), plus the tool's own `@FromContext` and extracted properties under their property names.
 */
export function buildForHandlerTool(
  definition: ToolDefinition,
  args: Readonly<Record<string, unknown>>,
  context: ExecutionContext,
): SeedParameters {
  const flat = buildParameters(args, context, definition);
  const declared: Record<string, unknown> = {};
  for (const property of definition.parameters.properties) {
    if (property.context === undefined && args[property.name] !== undefined)
      declared[property.name] = args[property.name];
  }
  // Missing required extracted values are the executor's to report (it validates); this helper only merges.
  injectContext(declared, definition.parameters, context);
  for (const property of definition.parameters.properties) {
    const value = declared[property.name];
    if (value !== undefined && (property.context !== undefined || property.extract !== undefined))
      flat[property.name] = value;
  }
  return flat;
}
