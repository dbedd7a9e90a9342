import type {
  CompactDeclaration,
  CompactParameterDeclaration,
  OutputSchemaOptions,
  ToolDefinition,
  ToolOptions,
} from '../types/definition';
import { outputFromJsonSchema } from './output-schema';
import type { ArraySchema, ObjectSchema, ParamSchema, PropertyDefinition, ScalarKind } from '../types/schema';
import { RESERVED_PROPERTY_NAMES } from './json-schema-types';
import { finalizeDefinition } from './finalize-definition';
import { GRAMMAR_SUMMARY, schemaMessages as messages } from './messages';
import type { SchemaLocation } from './messages';

/**
 * The compact type grammar (`array<datetime>`, `string?`) and the compact declaration format.
 *
 *   type    := scalar | 'array' '<' element '>' | 'array' '[' element ']' | element '[' ']'
 *   element := scalar
 *   scalar  := 'string' | 'int' | 'float' | 'bool' | 'date' | 'datetime'
 *
 * Whitespace between tokens is ignored. Names are case-sensitive and lower-case: `Int` or `integer` is refused
 * with a hint naming the grammar's spelling, so one tool set never spells one type two ways.
 * Arrays of arrays are refused: the grammar describes flat parameter lists.
 */

export const SCALAR_KINDS: readonly ScalarKind[] = Object.freeze([
  'string',
  'int',
  'float',
  'bool',
  'date',
  'datetime',
]);

/** Longer expressions are refused before tokenizing: the longest valid one is about 20 characters. */
const MAXIMUM_EXPRESSION_LENGTH = 200;

/** Names other languages and schemas use, mapped to the grammar's spelling for the error hint. */
const SPELLING_HINTS: ReadonlyMap<string, string> = new Map([
  ['str', 'string'],
  ['text', 'string'],
  ['integer', 'int'],
  ['long', 'int'],
  ['number', 'float'],
  ['double', 'float'],
  ['decimal', 'float'],
  ['boolean', 'bool'],
  ['date-time', 'datetime'],
  ['date_time', 'datetime'],
  ['timestamp', 'datetime'],
  ['list', 'array'],
]);

type Token =
  | { readonly kind: 'name'; readonly text: string; readonly position: number }
  | { readonly kind: 'symbol'; readonly text: '<' | '>' | '[' | ']'; readonly position: number }
  | { readonly kind: 'end'; readonly text: ''; readonly position: number };

function isNameStart(character: string): boolean {
  return /^[A-Za-z_]$/.test(character);
}

function isNamePart(character: string): boolean {
  return /^[A-Za-z0-9_-]$/.test(character);
}

function tokenize(expression: string, where: SchemaLocation): Token[] {
  const tokens: Token[] = [];
  let position = 0;
  while (position < expression.length) {
    const character = expression[position]!;
    if (/\s/.test(character)) {
      position += 1;
    } else if (character === '<' || character === '>' || character === '[' || character === ']') {
      tokens.push({ kind: 'symbol', text: character, position });
      position += 1;
    } else if (isNameStart(character)) {
      const start = position;
      while (position < expression.length && isNamePart(expression[position]!)) position += 1;
      tokens.push({ kind: 'name', text: expression.slice(start, position), position: start });
    } else {
      throw messages.unexpectedCharacter(expression, character, position, where);
    }
  }
  tokens.push({ kind: 'end', text: '', position: expression.length });
  return tokens;
}

function describeToken(token: Token): string {
  return token.kind === 'end' ? 'the end of the expression' : `'${token.text}' at position ${token.position}`;
}

function suggestionFor(name: string): string | undefined {
  const lower = name.toLowerCase();
  if ((SCALAR_KINDS as readonly string[]).includes(lower) || lower === 'array') return lower;
  return SPELLING_HINTS.get(lower);
}

/** A recursive-descent parser over at most two levels: a nested array is refused as soon as it is seen. */
class TypeExpressionParser {
  private index = 0;

  constructor(
    private readonly expression: string,
    private readonly tokens: readonly Token[],
    private readonly where: SchemaLocation,
  ) {}

  parse(): ParamSchema {
    const schema = this.parseType(false);
    const next = this.peek();
    if (next.kind !== 'end') {
      throw messages.unexpectedToken(this.expression, describeToken(next), 'the end of the expression', this.where);
    }
    return schema;
  }

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)]!;
  }

  private take(): Token {
    const token = this.peek();
    this.index += 1;
    return token;
  }

  private expectSymbol(symbol: '>' | ']'): void {
    const token = this.take();
    if (token.kind !== 'symbol' || token.text !== symbol) {
      throw messages.unexpectedToken(this.expression, describeToken(token), `'${symbol}'`, this.where);
    }
  }

  private parseType(insideArray: boolean): ParamSchema {
    const token = this.take();
    if (token.kind !== 'name') {
      throw messages.unexpectedToken(this.expression, describeToken(token), 'a type name', this.where);
    }
    let schema: ParamSchema;
    if (token.text === 'array') {
      const opener = this.peek();
      if (opener.kind !== 'symbol' || (opener.text !== '<' && opener.text !== '[')) {
        throw messages.arrayWithoutElementType(this.expression, this.where);
      }
      if (insideArray) throw messages.nestedArray(this.expression, this.where);
      this.take();
      if (opener.text === '[' && this.peek().kind === 'symbol' && this.peek().text === ']') {
        throw messages.arrayWithoutElementType(this.expression, this.where);
      }
      const items = this.parseType(true);
      this.expectSymbol(opener.text === '<' ? '>' : ']');
      schema = arrayOf(items);
    } else if ((SCALAR_KINDS as readonly string[]).includes(token.text)) {
      schema = Object.freeze({ kind: token.text as ScalarKind });
    } else {
      throw messages.unknownTypeName(this.expression, token.text, suggestionFor(token.text), this.where);
    }
    while (this.peek().kind === 'symbol' && this.peek().text === '[') {
      if (insideArray || schema.kind === 'array') throw messages.nestedArray(this.expression, this.where);
      this.take();
      this.expectSymbol(']');
      schema = arrayOf(schema);
    }
    return schema;
  }
}

function arrayOf(items: ParamSchema): ArraySchema {
  return Object.freeze({ kind: 'array', items });
}

/**
 * Parses a compact type expression (`'int'`, `'array<datetime>'`, `'array[string]'`, `'date[]'`) into a frozen
 * parameter schema. `where` names the class or tool and the property in the error, when there is one.
 */
export function parseTypeExpression(expression: string, where: SchemaLocation = {}): ParamSchema {
  if (typeof expression !== 'string' || expression.trim() === '') throw messages.emptyTypeExpression(where);
  if (expression.length > MAXIMUM_EXPRESSION_LENGTH) {
    throw messages.typeExpressionTooLong(expression, MAXIMUM_EXPRESSION_LENGTH, where);
  }
  return new TypeExpressionParser(expression, tokenize(expression, where), where).parse();
}

/**
 * The grammar's canonical spelling of a schema (`array<datetime>`), or `undefined` when the grammar cannot say it
 * (objects, unions, nested arrays, or any constraint beyond the type itself).
 */
export function formatTypeExpression(schema: ParamSchema): string | undefined {
  const keys = Object.keys(schema).filter((key) => key !== 'description');
  if (schema.kind === 'array') {
    if (keys.some((key) => key !== 'kind' && key !== 'items')) return undefined;
    const items = schema.items;
    if (items.kind === 'array' || Object.keys(items).some((key) => key !== 'kind')) return undefined;
    const element = formatTypeExpression(items);
    return element === undefined ? undefined : `array<${element}>`;
  }
  if (!(SCALAR_KINDS as readonly string[]).includes(schema.kind) || keys.some((key) => key !== 'kind'))
    return undefined;
  return schema.kind;
}

// ---------------------------------------------------------------------------------------------------------------
// Compact declarations
// ---------------------------------------------------------------------------------------------------------------

const DECLARATION_FIELDS: readonly string[] = ['command_name', 'description', 'parameters'];
const PARAMETER_FIELDS: readonly string[] = ['name', 'type', 'required', 'description'];
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
// A name with control characters or surrounding spaces is almost always a client bug.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function validateCommandName(value: unknown): string {
  if (typeof value !== 'string' || value === '' || value.trim() !== value || CONTROL_CHARACTERS.test(value)) {
    throw messages.compactCommandNameInvalid(value);
  }
  return value;
}

function rejectUnknownFields(
  record: Readonly<Record<string, unknown>>,
  allowed: readonly string[],
  where: (field: string) => SchemaLocation,
): void {
  for (const field of Object.keys(record)) {
    if (!allowed.includes(field)) throw messages.compactUnknownField(where(field), field, allowed);
  }
}

function parameterFromDeclaration(
  declaration: unknown,
  index: number,
  target: string,
  firstIndexByName: Map<string, number>,
): { property: PropertyDefinition; copy: CompactParameterDeclaration } {
  const at = (field?: string): SchemaLocation => ({
    target,
    property: field === undefined ? `parameters[${index}]` : `parameters[${index}].${field}`,
  });
  if (!isRecord(declaration))
    throw messages.compactFieldInvalid(at(), 'an object { name, type, required, description }', declaration);
  rejectUnknownFields(declaration, PARAMETER_FIELDS, at);
  const { name, type, required, description } = declaration;
  if (typeof name !== 'string') throw messages.compactParameterNameInvalid(at('name'), name);
  if (RESERVED_PROPERTY_NAMES.has(name)) throw messages.reservedPropertyName(at('name'), name);
  if (!PARAMETER_NAME.test(name)) throw messages.compactParameterNameInvalid(at('name'), name);
  const firstIndex = firstIndexByName.get(name);
  if (firstIndex !== undefined) throw messages.compactDuplicateParameter(at('name'), name, firstIndex);
  firstIndexByName.set(name, index);
  if (typeof type !== 'string')
    throw messages.compactFieldInvalid(at('type'), `a type expression (${GRAMMAR_SUMMARY})`, type);
  if (required !== undefined && typeof required !== 'boolean')
    throw messages.compactFieldInvalid(at('required'), 'true or false', required);
  if (description !== undefined && typeof description !== 'string')
    throw messages.compactFieldInvalid(at('description'), 'a string', description);

  const parsed = parseTypeExpression(type, { target, property: name });
  const schema: ParamSchema = description === undefined ? parsed : Object.freeze({ ...parsed, description });
  const property: PropertyDefinition = Object.freeze({
    name,
    schema,
    required: required ?? true,
    aliases: Object.freeze([]),
  });
  const copy: CompactParameterDeclaration = Object.freeze({
    name,
    type,
    ...(required === undefined ? {} : { required }),
    ...(description === undefined ? {} : { description }),
  });
  return { property, copy };
}

/**
 * Builds a tool definition from a compact declaration
 * `{ command_name, description, parameters: [{ name, type, required, description }] }`.
 * `required` defaults to true; a missing `parameters` means the tool takes none. The declaration is checked
 * field by field (unknown fields are refused, so an `enum` a client expected to apply is never dropped), and
 * the definition keeps a frozen copy of it as its source.
 */
export function definitionFromCompact(
  declaration: CompactDeclaration,
  options: ToolOptions & OutputSchemaOptions = {},
): ToolDefinition {
  if (!isRecord(declaration)) throw messages.compactDeclarationNotObject(declaration);
  const name = validateCommandName(declaration.command_name);
  const target = `compact declaration '${name}'`;
  rejectUnknownFields(declaration, DECLARATION_FIELDS, (field) => ({ target, property: field }));
  const { description, parameters } = declaration as Readonly<Record<string, unknown>>;
  if (description !== undefined && typeof description !== 'string') {
    throw messages.compactFieldInvalid({ target, property: 'description' }, 'a string', description);
  }
  if (parameters !== undefined && !Array.isArray(parameters)) {
    throw messages.compactFieldInvalid(
      { target, property: 'parameters' },
      'an array of parameter declarations',
      parameters,
    );
  }

  const firstIndexByName = new Map<string, number>();
  const built = ((parameters ?? []) as readonly unknown[]).map((parameter, index) =>
    parameterFromDeclaration(parameter, index, target, firstIndexByName),
  );
  const parametersSchema: ObjectSchema = Object.freeze({
    kind: 'object',
    properties: Object.freeze(built.map((entry) => entry.property)),
    additionalProperties: false,
  });
  const source: CompactDeclaration = Object.freeze({
    command_name: name,
    ...(description === undefined ? {} : { description }),
    parameters: Object.freeze(built.map((entry) => entry.copy)),
  });
  const { outputSchema, ...toolOptions } = options;
  return finalizeDefinition(
    {
      name,
      description: description ?? '',
      parameters: parametersSchema,
      options: toolOptions,
      source: Object.freeze({ kind: 'compact', declaration: source }),
      ...(outputSchema === undefined ? {} : { output: outputFromJsonSchema(name, outputSchema) }),
    },
    { origin: 'registerCompact', target },
  );
}
