import { jsonEquals } from './json-equals';
import { finalizeDefinition } from './finalize-definition';
import { clipAnnotation, fromJsonSchema } from './json-schema-import';
import { resolveLimits, type JsonSchemaImportOptions } from './json-schema-limits';
import { schemaMessages as messages } from './messages';
import { outputFromJsonSchema } from './output-schema';
import type { JsonSchemaToolDeclaration, OutputSchemaOptions, ToolDefinition, ToolOptions } from '../types/definition';

/** A JSON Schema tool declaration (an MCP `tools/list` entry, a function definition) -> a checked tool definition. */

type JsonRecord = Readonly<Record<string, unknown>>;

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function own(record: JsonRecord, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/** What `definitionFromJsonSchema` takes: the tool's own options plus how to import its schema. */
export interface JsonSchemaToolOptions
  extends ToolOptions, OutputSchemaOptions, Omit<JsonSchemaImportOptions, 'target'> {
  /** Prefix for the tool's name: `namespace + '.' + name` (e.g. the MCP server's name). */
  readonly namespace?: string;
}

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
const NO_PARAMETERS: Readonly<Record<string, unknown>> = Object.freeze({
  type: 'object',
  properties: Object.freeze({}),
});

/**
 * Builds a tool definition from a JSON Schema tool declaration (`parameters`, or MCP's `inputSchema`; none means the
 * tool takes no parameters). With a `namespace` the name becomes `namespace + '.' + name`. The declaration's
 * `title` and `annotations` become options unless the caller's options say otherwise.
 */
export function definitionFromJsonSchema(
  declaration: JsonSchemaToolDeclaration,
  options: JsonSchemaToolOptions = {},
): ToolDefinition {
  if (!isRecord(declaration)) throw messages.jsonSchemaDeclarationNotObject(declaration);
  const declaredName = own(declaration, 'name');
  if (
    typeof declaredName !== 'string' ||
    declaredName === '' ||
    declaredName.trim() !== declaredName ||
    CONTROL_CHARACTERS.test(declaredName)
  ) {
    throw messages.toolNameInvalid(declaredName);
  }
  const {
    namespace,
    untrusted,
    limits,
    annotationKeywords,
    additionalPropertiesWhenAbsent,
    outputSchema: givenOutputSchema,
    ...toolOptions
  } = options;
  const name = namespace === undefined || namespace === '' ? declaredName : `${namespace}.${declaredName}`;
  const description = own(declaration, 'description');
  if (description !== undefined && typeof description !== 'string') {
    throw messages.invalidKeywordValue(
      { target: name, property: 'description' },
      'description',
      'a string',
      description,
    );
  }
  const parameters = own(declaration, 'parameters');
  const inputSchema = own(declaration, 'inputSchema');
  if (parameters !== undefined && inputSchema !== undefined && !jsonEquals(parameters, inputSchema)) {
    throw messages.parametersGivenTwice({ target: name, property: 'parameters' });
  }
  const schema = parameters ?? inputSchema;
  const parametersSchema = fromJsonSchema(schema ?? NO_PARAMETERS, {
    target: name,
    untrusted,
    limits,
    annotationKeywords,
    additionalPropertiesWhenAbsent,
  });
  // The caller's `outputSchema` option wins over the declaration's own (a remote server's data).
  const outputSchema = givenOutputSchema ?? own(declaration, 'outputSchema');
  const output =
    outputSchema === undefined
      ? undefined
      : outputFromJsonSchema(name, outputSchema, { untrusted, limits, annotationKeywords });
  const title = own(declaration, 'title');
  const annotations = own(declaration, 'annotations');
  // Only the definition's own objects are frozen: the caller's schema object (kept as the source) is left alone.
  const limit = resolveLimits(limits).maxDescriptionLength;
  return finalizeDefinition(
    {
      name,
      description:
        untrusted === true && typeof description === 'string'
          ? clipAnnotation(description, limit)
          : (description ?? ''),
      parameters: parametersSchema,
      options: toolOptions,
      source: Object.freeze({
        kind: 'json-schema',
        schema: (schema ?? NO_PARAMETERS) as Readonly<Record<string, unknown>>,
      }),
      ...(output === undefined ? {} : { output }),
    },
    {
      origin: 'registerJsonSchemaTool',
      target: name,
      // The declaration's own title and annotations (a remote server's data: its text clipped like descriptions); the caller's options win.
      declaredOptions: {
        ...(typeof title === 'string' ? { title: untrusted === true ? clipAnnotation(title, limit) : title } : {}),
        ...(isRecord(annotations)
          ? {
              annotations: Object.freeze(
                untrusted === true ? clippedAnnotations(annotations, limit) : { ...annotations },
              ),
            }
          : {}),
      },
    },
  );
}

/** An untrusted declaration's annotations with every string value clipped (the hints themselves are booleans). */
function clippedAnnotations(annotations: JsonRecord, limit: number): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(annotations))
    Object.defineProperty(copy, key, {
      value: typeof value === 'string' ? clipAnnotation(value, limit) : value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return copy;
}
