import type { ObjectSchema, PropertyDefinition, ToolDefinition } from '../types';
import { CONTEXT_KEY_PROPERTIES, type DataPacket, type ExecutionContext, type Transformation, type ValidationIssue } from '../types/execution';
import type { ContextKey, ExtractionSource } from '../types/schema';
import { describeExpected, issue } from './messages';
import { canonicalKey } from './normalizer';

/** A context field the tool requires but the engine did not supply: the developer's problem, not the model's. */
export class MissingContextError extends Error {
  constructor(readonly property: string, readonly contextKey: ContextKey) {
    super(`The execution context has no "${contextKey}" for the required context field "${property}".`);
  }
}

export interface InjectionOutcome {
  readonly transformations: Transformation[];
  readonly issues: ValidationIssue[];
}

/** The latest data packet's extracted value (seed 003: `content.body` / `content.title`). */
export function extractFromPackets(packets: readonly DataPacket[] | undefined, source: ExtractionSource): unknown {
  if (!packets || packets.length === 0) return undefined;
  const content = packets[packets.length - 1]?.content;
  if (!content) return undefined;
  const value = source === 'content' ? content.body : content.title;
  return value === null ? undefined : value;
}

export function contextValue(context: ExecutionContext, key: ContextKey): unknown {
  return context[CONTEXT_KEY_PROPERTIES[key]];
}

/**
 * Pipeline step 5: fill `@FromContext` properties from the trusted context only (the normalizer has already
 * dropped whatever the model sent for them) and extracted properties from the latest data packet when the model
 * gave none. Mutates `params`, which the normalizer produced as a fresh object.
 */
export function injectContext(params: Record<string, unknown>, schema: ObjectSchema, context: ExecutionContext): InjectionOutcome {
  const transformations: Transformation[] = [];
  const issues: ValidationIssue[] = [];
  for (const property of schema.properties) {
    if (property.context) {
      const value = contextValue(context, property.context);
      if (value !== undefined) params[property.name] = value;
      else if (property.required) throw new MissingContextError(property.name, property.context);
      continue;
    }
    if (property.extract && params[property.name] === undefined) {
      const value = extractFromPackets(context.dataPackets, property.extract);
      if (value !== undefined) {
        params[property.name] = value;
        transformations.push({ path: property.name, rule: `extracted-${property.extract}`, from: undefined, to: value });
      } else if (property.required) {
        issues.push(requiredIssue(property));
      }
    }
  }
  return { transformations, issues };
}

function requiredIssue(property: PropertyDefinition): ValidationIssue {
  return issue(property.name, 'required', property.schema, undefined, `"${property.name}" is required: send ${describeExpected(property.schema)}.`);
}

const CONTEXT_KEYS = Object.keys(CONTEXT_KEY_PROPERTIES) as ContextKey[];
const RESERVED = new Set(CONTEXT_KEYS.map(canonicalKey).concat(['content', 'title'].map(canonicalKey)));

/**
 * Seed 003's flat parameter object for handlers that want one merged object: the model's (already normalized)
 * arguments, then every trusted context field under its snake_case key, then `content`/`title` extracted from the
 * latest data packet when the model gave none. Model-supplied values for context keys never survive.
 */
export function buildParameters(args: Readonly<Record<string, unknown>>, context: ExecutionContext): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  for (const key of Object.keys(args)) {
    const canonical = canonicalKey(key);
    if (RESERVED.has(canonical) && canonical !== 'content' && canonical !== 'title') continue;
    flat[key] = args[key];
  }
  for (const key of CONTEXT_KEYS) {
    const value = contextValue(context, key);
    if (value !== undefined) flat[key] = value;
  }
  for (const source of ['content', 'title'] as const) {
    if (flat[source] === undefined) {
      const value = extractFromPackets(context.dataPackets, source);
      if (value !== undefined) flat[source] = value;
    }
  }
  return flat;
}

/**
 * The same merge restricted to what one tool declares: its model-visible arguments, its `@FromContext` fields
 * and its extracted fields.
 */
export function buildForHandlerTool(definition: ToolDefinition, args: Readonly<Record<string, unknown>>, context: ExecutionContext): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  const contextNames = new Set(definition.parameters.properties.filter((property) => property.context).map((property) => canonicalKey(property.name)));
  for (const key of Object.keys(args)) {
    const canonical = canonicalKey(key);
    if (contextNames.has(canonical) || (RESERVED.has(canonical) && canonical !== 'content' && canonical !== 'title')) continue;
    params[key] = args[key];
  }
  // Missing required extracted values are the executor's to report (it validates); this helper only merges.
  injectContext(params, definition.parameters, context);
  return params;
}
