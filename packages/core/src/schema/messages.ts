import { DefinitionError } from '../errors/definition-error';
import { renderValue } from './render-value';

/**
 * Every definition error the schema area raises: the compact grammar, the compact declaration, JSON Schema
 * import and export. Each names what is wrong, where (the tool or declaration, and the parameter or JSON pointer)
 * and how to fix it.
 */

/** Where a problem is: the tool, class or declaration, and the property or JSON pointer inside it. */
export interface SchemaLocation {
  readonly target?: string;
  readonly property?: string;
}

const MAX_QUOTED_LENGTH = 80;

/** A value quoted for a message (the one renderer, in this area's style), clipped so a hostile schema cannot flood a log line. */
export function quote(value: unknown): string {
  return renderValue(value, { strings: 'single-quoted', maxLength: MAX_QUOTED_LENGTH });
}

function definitionError(message: string, where: SchemaLocation, fix: string, cause?: unknown): DefinitionError {
  return new DefinitionError(
    message,
    { target: where.target, property: where.property, fix },
    cause === undefined ? undefined : { cause },
  );
}

/** The compact grammar in one line, for messages. */
export const GRAMMAR_SUMMARY = 'string, int, float, bool, date, datetime, array<T> (also written array[T] or T[])';

const COMPACT_FORMAT =
  '{ "command_name", "description", "parameters": [{ "name", "type", "required", "description" }] }';

/**
 * The schema area's definition errors, one builder per problem (the style of every message catalogue in core: an
 * object of builders, as `definitionMessages`, `decoratorMessages` and `registryMessages`).
 */
export const schemaMessages = {
  emptyTypeExpression(where: SchemaLocation): DefinitionError {
    return definitionError('The type expression is empty.', where, `Give one of: ${GRAMMAR_SUMMARY}.`);
  },

  typeExpressionTooLong(expression: string, maximumLength: number, where: SchemaLocation): DefinitionError {
    return definitionError(
      `The type expression ${quote(expression)} is longer than ${maximumLength} characters.`,
      where,
      `Give one of: ${GRAMMAR_SUMMARY}.`,
    );
  },

  unexpectedCharacter(expression: string, character: string, position: number, where: SchemaLocation): DefinitionError {
    return definitionError(
      `Unexpected character ${quote(character)} at position ${position} of the type expression ${quote(expression)}.`,
      where,
      `Write one of: ${GRAMMAR_SUMMARY}.`,
    );
  },

  unknownTypeName(
    expression: string,
    name: string,
    suggestion: string | undefined,
    where: SchemaLocation,
  ): DefinitionError {
    const hint =
      suggestion === undefined
        ? `Use one of: ${GRAMMAR_SUMMARY}.`
        : `Use ${quote(suggestion)} (type names are lower-case and spelled as in the grammar: ${GRAMMAR_SUMMARY}).`;
    return definitionError(`Unknown type ${quote(name)} in the type expression ${quote(expression)}.`, where, hint);
  },

  arrayWithoutElementType(expression: string, where: SchemaLocation): DefinitionError {
    return definitionError(
      `The type expression ${quote(expression)} has 'array' without an element type.`,
      where,
      "Name the element type: 'array<string>', 'array[int]' or 'datetime[]'.",
    );
  },

  nestedArray(expression: string, where: SchemaLocation): DefinitionError {
    return definitionError(
      `Nested arrays (${quote(expression)}) are not supported by the compact grammar.`,
      where,
      'Declare the tool with a JSON Schema (registerJsonSchemaTool) to describe an array of arrays, or use an array of objects (@ArrayOf(() => Row)).',
    );
  },

  unexpectedToken(expression: string, found: string, expected: string, where: SchemaLocation): DefinitionError {
    return definitionError(
      `Expected ${expected} but found ${found} in the type expression ${quote(expression)}.`,
      where,
      `Write one of: ${GRAMMAR_SUMMARY}.`,
    );
  },

  compactDeclarationNotObject(received: unknown): DefinitionError {
    return definitionError(
      `A compact declaration must be an object, received ${quote(received)}.`,
      { target: 'compact declaration' },
      `Send ${COMPACT_FORMAT}.`,
    );
  },

  compactCommandNameInvalid(received: unknown): DefinitionError {
    const problem = received === undefined ? 'has no command_name' : `has an invalid command_name ${quote(received)}`;
    return definitionError(
      `The compact declaration ${problem}.`,
      { target: 'compact declaration', property: 'command_name' },
      'Give a non-empty command_name string without leading or trailing spaces or control characters, e.g. "get_calendar_events".',
    );
  },

  compactFieldInvalid(where: SchemaLocation, expected: string, received: unknown): DefinitionError {
    return definitionError(
      `Expected ${expected}, received ${quote(received)}.`,
      where,
      `Give ${expected}, as in ${COMPACT_FORMAT}.`,
    );
  },

  compactUnknownField(where: SchemaLocation, field: string, allowed: readonly string[]): DefinitionError {
    return definitionError(
      `Unknown field ${quote(field)}: the compact format has only ${allowed.join(', ')}.`,
      where,
      'Remove the field, or declare the tool as a JSON Schema tool (registerJsonSchemaTool) to use enums, bounds, defaults or nested objects.',
    );
  },

  compactParameterNameInvalid(where: SchemaLocation, received: unknown): DefinitionError {
    return definitionError(
      `The parameter name ${quote(received)} is not valid.`,
      where,
      'Use 1 to 64 characters: a letter or underscore, then letters, digits, underscores or hyphens (e.g. "resolved_datetimes").',
    );
  },

  compactDuplicateParameter(where: SchemaLocation, name: string, firstIndex: number): DefinitionError {
    return definitionError(
      `The parameter name ${quote(name)} is declared twice (first at parameters[${firstIndex}]).`,
      where,
      'Give each parameter a distinct name.',
    );
  },

  reservedPropertyName(where: SchemaLocation, name: string): DefinitionError {
    return definitionError(
      `The property name ${quote(name)} is reserved: it can never be set safely on a JavaScript object.`,
      where,
      'Rename the property.',
    );
  },

  schemaNotAnObject(where: SchemaLocation, received: unknown): DefinitionError {
    return definitionError(
      `Expected a JSON Schema (an object or a boolean), received ${quote(received)}.`,
      where,
      'Give a JSON Schema object such as { "type": "string" }.',
    );
  },

  rootNotAnObjectSchema(where: SchemaLocation, kind: string): DefinitionError {
    return definitionError(
      `Tool parameters must be an object schema, but this schema describes ${kind}.`,
      where,
      'Wrap the value in an object: { "type": "object", "properties": { "value": <schema> }, "required": ["value"] }.',
    );
  },

  falseSchema(where: SchemaLocation): DefinitionError {
    return definitionError(
      'The schema `false` accepts no value at all, so no call could ever be valid here.',
      where,
      'Remove the property (or the items) it describes, or give a schema that accepts something.',
    );
  },

  unsupportedKeyword(where: SchemaLocation, keyword: string, reason: string, fix: string): DefinitionError {
    return definitionError(
      `The keyword ${quote(keyword)} ${reason}; toolwright refuses it rather than drop the constraint.`,
      where,
      fix,
    );
  },

  unknownKeyword(where: SchemaLocation, keyword: string): DefinitionError {
    return definitionError(
      `The keyword ${quote(keyword)} is not a JSON Schema keyword toolwright knows, so it may constrain values in a way that would be lost.`,
      where,
      `If it is only an annotation, list it in the import option annotationKeywords (or prefix it with "x-"); if it is a misspelling, correct it.`,
    );
  },

  invalidKeywordValue(where: SchemaLocation, keyword: string, expected: string, received: unknown): DefinitionError {
    return definitionError(
      `The keyword ${quote(keyword)} must be ${expected}, received ${quote(received)}.`,
      where,
      `Give ${expected}.`,
    );
  },

  unknownJsonType(where: SchemaLocation, name: unknown, hint: string | undefined): DefinitionError {
    return definitionError(
      `Unknown JSON Schema type ${quote(name)}.`,
      where,
      hint ?? 'Use one of: string, integer, number, boolean, object, array, null.',
    );
  },

  ambiguousUntypedSchema(where: SchemaLocation, families: readonly string[]): DefinitionError {
    return definitionError(
      `The schema has no "type" but has keywords for several types (${families.join(', ')}).`,
      where,
      'Add "type" (a type name, or an array of type names).',
    );
  },

  enumValueTooLong(where: SchemaLocation, keyword: string, length: number, maximum: number): DefinitionError {
    return definitionError(
      `An untrusted schema's ${keyword} value is ${length} characters long; imported text is capped at ${maximum} characters, and an allowed value cannot be clipped.`,
      where,
      `Shorten the value on the server, or raise limits.maxDescriptionLength for this import.`,
    );
  },
  enumValueNotRepresentable(where: SchemaLocation, keyword: string, value: unknown): DefinitionError {
    return definitionError(
      `The ${keyword} value ${quote(value)} is an object or an array; toolwright enums hold strings, numbers, booleans and null.`,
      where,
      'Use scalar enum values, or describe the allowed objects with a schema (anyOf of objects).',
    );
  },

  emptyEnum(where: SchemaLocation): DefinitionError {
    return definitionError(
      'The enum is empty, so no value is allowed.',
      where,
      'List at least one allowed value, or remove the enum.',
    );
  },

  invalidPattern(where: SchemaLocation, pattern: string, cause: unknown): DefinitionError {
    const reason = cause instanceof Error ? cause.message : String(cause);
    return definitionError(
      `The pattern ${quote(pattern)} is not a valid ECMAScript regular expression (${reason}).`,
      where,
      'Give a pattern that compiles with new RegExp(pattern, "u").',
      cause,
    );
  },

  patternTooLong(where: SchemaLocation, length: number, maximum: number): DefinitionError {
    return definitionError(
      `The pattern is ${length} characters long, more than the limit of ${maximum}.`,
      where,
      'Shorten the pattern, or raise limits.maxPatternLength for this trusted schema.',
    );
  },

  redosPattern(where: SchemaLocation, pattern: string): DefinitionError {
    return definitionError(
      `The pattern ${quote(pattern)} nests a quantifier inside a quantified group (star height above 1), which can take exponential time on hostile input (ReDoS).`,
      where,
      'Rewrite the pattern without a repeated group that itself repeats (e.g. "^a+$" instead of "^(a+)+$"), or import the schema as trusted.',
    );
  },

  nonLinearPattern(where: SchemaLocation, pattern: string, reason: string): DefinitionError {
    return definitionError(
      `The pattern ${quote(pattern)} cannot run on the linear-time engine used for untrusted schemas (${reason}); lookaround and backreferences are not supported there.`,
      where,
      'Rewrite the pattern without lookaround ((?=, (?!, (?<=, (?<!) and backreferences (\\1, \\k<name>), or import the schema as trusted.',
    );
  },

  depthLimitExceeded(where: SchemaLocation, maximum: number): DefinitionError {
    return definitionError(
      `The schema nests deeper than the limit of ${maximum} levels.`,
      where,
      'Flatten the schema, or raise limits.maxDepth for this trusted schema.',
    );
  },

  nodeLimitExceeded(where: SchemaLocation, maximum: number): DefinitionError {
    return definitionError(
      `The schema has more than ${maximum} nodes (schemas, enum values, defaults and examples, with every $ref expanded).`,
      where,
      'Simplify the schema, or raise limits.maxNodes for this trusted schema.',
    );
  },

  refUnsupported(where: SchemaLocation, reference: string): DefinitionError {
    return definitionError(
      `The $ref ${quote(reference)} is not a local JSON pointer ("#", "#/$defs/Name", "#/definitions/Name", ...).`,
      where,
      'Bundle the referenced schema into "$defs" and refer to it as "#/$defs/Name".',
    );
  },

  refNotFound(where: SchemaLocation, reference: string): DefinitionError {
    return definitionError(
      `The $ref ${quote(reference)} points to nothing in this schema.`,
      where,
      'Add the definition under "$defs", or correct the reference.',
    );
  },

  refRecursive(where: SchemaLocation, reference: string, chain: readonly string[]): DefinitionError {
    return definitionError(
      `The $ref ${quote(reference)} is recursive (${chain.join(' -> ')}); the tool IR is a tree and cannot describe unbounded nesting.`,
      where,
      'Unroll the recursion to the depth the tool needs (a separate definition per level, the last without the recursive property), or declare the recursive property as a free-form object ({ "type": "object" }) if the tool validates it itself.',
    );
  },

  refDepthExceeded(where: SchemaLocation, maximum: number, chain: readonly string[]): DefinitionError {
    return definitionError(
      `The chain of $ref expansions (${chain.join(' -> ')}) is longer than the limit of ${maximum}.`,
      where,
      'Inline some definitions, or raise limits.maxRefDepth for this trusted schema.',
    );
  },

  unsatisfiableRequired(where: SchemaLocation, name: string): DefinitionError {
    return definitionError(
      `The property ${quote(name)} is required but not declared in "properties", and "additionalProperties" is false, so no object can be valid.`,
      where,
      `Declare ${quote(name)} under "properties", or remove it from "required".`,
    );
  },

  incompatibleAllOf(where: SchemaLocation, detail: string): DefinitionError {
    return definitionError(
      `The subschemas combined here (allOf, or a $ref with sibling keywords) conflict: ${detail}.`,
      where,
      'Make the combined subschemas agree, or merge them by hand into one schema.',
    );
  },

  bothAnyOfAndOneOf(where: SchemaLocation): DefinitionError {
    return definitionError(
      'The schema has both "anyOf" and "oneOf"; their combination cannot be represented as one union.',
      where,
      'Combine the alternatives into a single "anyOf" (or "oneOf").',
    );
  },

  exportDepthExceeded(where: SchemaLocation, maximum: number): DefinitionError {
    return definitionError(
      `The parameter schema nests deeper than ${maximum} levels (a DTO that contains itself?).`,
      where,
      'Break the cycle: a DTO cannot contain itself, directly or through other DTOs.',
    );
  },

  constNotInEnum(where: SchemaLocation, value: unknown): DefinitionError {
    return definitionError(
      `The const value ${quote(value)} is not in the enum, so no value is allowed.`,
      where,
      'Remove the const or the enum, or make them agree.',
    );
  },

  tupleItems(where: SchemaLocation): DefinitionError {
    return definitionError(
      'The keyword "items" is an array (a draft-7 tuple), which constrains items by position; toolwright refuses it rather than drop the constraint.',
      where,
      'Describe the elements with one "items" schema (an anyOf of the element types if they differ), or use an object with named properties.',
    );
  },

  formatWithStringConstraints(where: SchemaLocation, format: string, keywords: readonly string[]): DefinitionError {
    return definitionError(
      `A string with format ${quote(format)} cannot also carry ${keywords.join(', ')}: toolwright checks ${format} values by their format.`,
      where,
      `Remove ${keywords.join(', ')} (the format already fixes the shape), or drop the format and keep a plain string pattern.`,
    );
  },

  parametersGivenTwice(where: SchemaLocation): DefinitionError {
    return definitionError(
      'The declaration has both "parameters" and "inputSchema", and they differ.',
      where,
      'Give the schema once, as "parameters" or as "inputSchema" (MCP).',
    );
  },

  jsonSchemaDeclarationNotObject(received: unknown): DefinitionError {
    return definitionError(
      `A JSON Schema tool declaration must be an object, received ${quote(received)}.`,
      { target: 'JSON Schema tool declaration' },
      'Give { "name", "description", "parameters" } (or MCP\'s { "name", "description", "inputSchema" }).',
    );
  },

  toolNameInvalid(received: unknown): DefinitionError {
    return definitionError(
      `The JSON Schema tool declaration has an invalid name ${quote(received)}.`,
      { target: 'JSON Schema tool declaration', property: 'name' },
      'Give a non-empty name string without leading or trailing spaces or control characters.',
    );
  },
};
