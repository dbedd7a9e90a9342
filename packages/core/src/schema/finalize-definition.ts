import type { ToolDefinition, ToolOptions } from '../types/definition';
import type { ParamSchema } from '../types/schema';
import { definitionMessages } from './definition-messages';
import { renderValue } from './render-value';
import { copyToolOptions, findInvalidToolOption } from './tool-options';

/** Where a definition comes from, as its option messages name it. */
export type DefinitionOrigin = '@Command' | 'registerJsonSchemaTool' | 'registerCompact' | 'registerDefinition';

export interface FinalizeOptions {
  readonly origin: DefinitionOrigin;
  /** The class or tool the messages name (`ProposeCommand`, `filesystem.read_file`). */
  readonly target: string;
  /** Options the declaration itself carried (a JSON Schema tool's `title` and `annotations`): the caller's options win. */
  readonly declaredOptions?: ToolOptions;
}

/** The ordered bounds a schema may carry (checked in this order): a lower bound above its upper bound leaves no valid value. */
interface OrderedBounds {
  readonly minimum?: unknown;
  readonly maximum?: unknown;
  readonly minLength?: unknown;
  readonly maxLength?: unknown;
  readonly minItems?: unknown;
  readonly maxItems?: unknown;
}

/**
 * The one final check every definition passes, whatever its source (a `@Command` class, a JSON Schema, the compact
 * grammar): the tool options against the shared option table, and every schema's bounds for contradictions
 * (`minLength` 5 with `maxLength` 2, `minimum` 10 with `maximum` 1). Returns the definition with a checked, frozen
 * copy of its options; the definition and its source object are frozen (not the caller's schema the source holds:
 * the parameters are frozen by their builder). Throws a DefinitionError naming the tool, the option or parameter, and the fix.
 */
export function finalizeDefinition(definition: ToolDefinition, options: FinalizeOptions): ToolDefinition {
  const checked = checkToolOptions(definition.options, options);
  checkBounds(options.target, definition.parameters);
  if (definition.output !== undefined) checkBounds(`${options.target} output`, definition.output);
  return Object.freeze({
    ...definition,
    options:
      options.declaredOptions === undefined ? checked : Object.freeze({ ...options.declaredOptions, ...checked }),
    source: Object.freeze(definition.source),
  });
}

/**
 * Checks tool options against the shared option table (`tool-options.ts`) and returns a copy of the known options
 * given. Throws a DefinitionError such as "ProposeCommand.retries: @Command has an invalid `retries`: 1.5 is not a
 * non-negative integer. Fix: give `retries` as a non-negative integer."
 */
export function checkToolOptions(options: ToolOptions, where: Pick<FinalizeOptions, 'origin' | 'target'>): ToolOptions {
  assertToolOptions(options, where);
  return copyToolOptions(options as unknown as Readonly<Record<string, unknown>>);
}

/** `checkToolOptions` without the copy: throws the same DefinitionError for the first invalid option. */
export function assertToolOptions(options: ToolOptions, where: Pick<FinalizeOptions, 'origin' | 'target'>): void {
  const given = options as unknown as Readonly<Record<string, unknown>>;
  const invalid = findInvalidToolOption(given);
  if (invalid?.message !== undefined) {
    const { problem, fix } = invalid.message(given[invalid.option]);
    throw definitionMessages.toolOptionProblem(where.target, invalid.option, problem, fix);
  }
  if (invalid !== undefined) {
    throw definitionMessages.invalidToolOption(
      where.origin,
      where.target,
      invalid.option,
      `${renderValue(given[invalid.option])} is not ${invalid.expected}`,
      `give \`${invalid.option}\` as ${invalid.expected}.`,
    );
  }
}

/** Every schema node of the parameters (iteratively: a deep schema cannot overflow the stack), with its parameter path. */
function checkBounds(target: string, root: ParamSchema): void {
  // Two parallel stacks (a schema and its path): no object per node. Only nodes with children are remembered (a
  // shared leaf checked twice passes or fails the same way).
  const schemas: ParamSchema[] = [root];
  const paths: string[] = [''];
  const seen = new Set<ParamSchema>();
  while (schemas.length > 0) {
    const schema = schemas.pop()!;
    const path = paths.pop()!;
    if (schema.kind === 'object' || schema.kind === 'array' || schema.kind === 'union') {
      if (seen.has(schema)) continue;
      seen.add(schema);
    }
    const bounds = schema as OrderedBounds;
    // Named reads (not `bounds[name]` in a loop over a list of names): keyed reads of absent keys are slow here.
    checkOrder(target, path, 'minimum', 'maximum', bounds.minimum, bounds.maximum);
    checkOrder(target, path, 'minLength', 'maxLength', bounds.minLength, bounds.maxLength);
    checkOrder(target, path, 'minItems', 'maxItems', bounds.minItems, bounds.maxItems);
    if (schema.kind === 'array') {
      schemas.push(schema.items);
      paths.push(`${path}[]`);
    } else if (schema.kind === 'union') {
      for (let index = schema.variants.length - 1; index >= 0; index--) {
        schemas.push(schema.variants[index]!);
        paths.push(path);
      }
    } else if (schema.kind === 'object') {
      if (typeof schema.additionalProperties === 'object') {
        schemas.push(schema.additionalProperties);
        paths.push(path === '' ? '*' : `${path}.*`);
      }
      // Pushed last to first, so the first declared parameter is checked (and reported) first.
      for (let index = schema.properties.length - 1; index >= 0; index--) {
        const property = schema.properties[index]!;
        schemas.push(property.schema);
        paths.push(path === '' ? property.name : `${path}.${property.name}`);
      }
    }
  }
}

function checkOrder(
  target: string,
  path: string,
  lowName: string,
  highName: string,
  low: unknown,
  high: unknown,
): void {
  if (typeof low === 'number' && typeof high === 'number' && low > high) {
    throw definitionMessages.invalidOption(
      { target, ...(path !== '' ? { property: path } : {}) },
      lowName,
      `${lowName} ${low} is greater than ${highName} ${high}`,
      `make \`${lowName}\` at most \`${highName}\`.`,
    );
  }
}
