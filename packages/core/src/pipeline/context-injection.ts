import type { ObjectSchema, PropertyDefinition } from '../types';
import {
  CONTEXT_KEY_PROPERTIES,
  type DataPacket,
  type ExecutionContext,
  type Transformation,
  type ValidationIssue,
} from '../types/execution';
import type { ContextKey, ExtractionSource } from '../types/schema';
import { describeExpected, issue } from './messages';
import { extractFromContext, isGivenValue } from './data-packets';

/** A context field the tool requires but the engine did not supply: the developer's problem, not the model's. */
export class MissingContextError extends Error {
  constructor(
    readonly property: string,
    readonly contextKey: ContextKey,
  ) {
    super(`The execution context has no "${contextKey}" for the required context field "${property}".`);
  }
}

export interface InjectionOutcome {
  readonly transformations: Transformation[];
  readonly issues: ValidationIssue[];
}

/** The latest data packet's extracted value (`content.body` / `content.title`, as Data Machine extracts it) of packets listed oldest first. */
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
export function injectContext(
  params: Record<string, unknown>,
  schema: ObjectSchema,
  context: ExecutionContext,
): InjectionOutcome {
  const transformations: Transformation[] = [];
  const issues: ValidationIssue[] = [];
  for (const property of schema.properties) {
    if (property.context) {
      const value = contextValue(context, property.context);
      if (value !== undefined) params[property.name] = value;
      else if (property.required) throw new MissingContextError(property.name, property.context);
      continue;
    }
    // The model's own value wins only when it is non-empty (seed 003): `""` is filled from the latest packet too.
    if (property.extract && !isGivenValue(params[property.name])) {
      const value = extractFromContext(context, property.extract);
      if (value !== undefined) {
        transformations.push({
          path: property.name,
          rule: `extracted-${property.extract}`,
          from: params[property.name],
          to: value,
        });
        params[property.name] = value;
      } else if (property.required) {
        issues.push(requiredIssue(property));
      }
    }
  }
  return { transformations, issues };
}

function requiredIssue(property: PropertyDefinition): ValidationIssue {
  return issue(
    property.name,
    'required',
    property.schema,
    undefined,
    `"${property.name}" is required: send ${describeExpected(property.schema)}.`,
  );
}
