import 'reflect-metadata';
import type { ParamSchema, ToolDefinition } from '@toolwright/core';
import { toJsonSchema } from '../../src/schema/json-schema-export';
import { definitionFromJsonSchema } from '../../src/schema/json-schema-tool';
import { BFCL_QUESTION_FILES, bfclToJsonSchema, loadBfclFunctions, type BfclFunctionRecord } from '../support/bfcl';

/**
 * Every function definition of the BFCL v4 corpus (python, java, javascript, irrelevance and live sets) imports through
 * the JSON Schema path after BFCL's type names are mapped, with zero definition errors, and exports stably.
 * No refusal is expected: if one appears, it must be listed here with its justification.
 */
const EXPECTED_REFUSALS: ReadonlyMap<string, string> = new Map();

interface Imported {
  readonly record: BfclFunctionRecord;
  readonly definition: ToolDefinition;
}

function key(record: BfclFunctionRecord): string {
  return `${record.file}#${record.entryId}#${record.index}`;
}

function walk(schema: ParamSchema, visit: (schema: ParamSchema) => void): void {
  visit(schema);
  if (schema.kind === 'array') walk(schema.items, visit);
  if (schema.kind === 'union') schema.variants.forEach((variant) => walk(variant, visit));
  if (schema.kind === 'object') {
    schema.properties.forEach((property) => walk(property.schema, visit));
    if (typeof schema.additionalProperties === 'object') walk(schema.additionalProperties, visit);
  }
}

describe('BFCL corpus -> JSON Schema -> IR', () => {
  const records = loadBfclFunctions();
  const imported: Imported[] = [];
  const refusals = new Map<string, string>();
  let elapsedMilliseconds = 0;

  beforeAll(() => {
    // CPU time of this process, not wall time: a busy machine must not fail a test about the importer's own work.
    const started = process.cpuUsage();
    for (const record of records) {
      const { name, description, parameters } = record.function;
      try {
        const definition = definitionFromJsonSchema(
          { name, description, parameters: bfclToJsonSchema(parameters) },
          { untrusted: true },
        );
        imported.push({ record, definition });
      } catch (error) {
        refusals.set(key(record), (error as Error).message);
      }
    }
    const used = process.cpuUsage(started);
    elapsedMilliseconds = (used.user + used.system) / 1000;
  });

  it('reads all 8,726 function definitions of the 13 question files', () => {
    expect(BFCL_QUESTION_FILES).toHaveLength(13);
    expect(records).toHaveLength(8_726);
    const perFile = Object.fromEntries(
      BFCL_QUESTION_FILES.map((file) => [file, records.filter((record) => record.file === file).length]),
    );
    expect(perFile).toEqual({
      'BFCL_v4_simple_python.json': 400,
      'BFCL_v4_simple_java.json': 100,
      'BFCL_v4_simple_javascript.json': 50,
      'BFCL_v4_multiple.json': 557,
      'BFCL_v4_parallel.json': 200,
      'BFCL_v4_parallel_multiple.json': 520,
      'BFCL_v4_irrelevance.json': 240,
      'BFCL_v4_live_simple.json': 258,
      'BFCL_v4_live_multiple.json': 4_178,
      'BFCL_v4_live_parallel.json': 18,
      'BFCL_v4_live_parallel_multiple.json': 95,
      'BFCL_v4_live_irrelevance.json': 2_066,
      'BFCL_v4_live_relevance.json': 44,
    });
  });

  it('imports every definition with zero definition errors (untrusted limits on)', () => {
    expect(Object.fromEntries(refusals)).toEqual(Object.fromEntries(EXPECTED_REFUSALS));
    expect(imported).toHaveLength(8_726 - EXPECTED_REFUSALS.size);
  });

  it('imports the whole corpus in linear time (a guard against a quadratic importer, not a speed target)', () => {
    expect(elapsedMilliseconds).toBeLessThan(10_000);
  });

  it('keeps names exactly, dots included', () => {
    const dotted = imported.filter(({ definition }) => definition.name.includes('.'));
    expect(dotted).toHaveLength(2_178);
    expect(imported.every(({ record, definition }) => definition.name === record.function.name)).toBe(true);
  });

  it('keeps every declared property, and requires exactly the names BFCL lists', () => {
    const mismatches: string[] = [];
    for (const { record, definition } of imported) {
      const declared = Object.keys(record.function.parameters.properties ?? {}).join(',');
      const names = definition.parameters.properties.map((property) => property.name).join(',');
      const required = definition.parameters.properties
        .filter((property) => property.required)
        .map((property) => property.name)
        .sort()
        .join(',');
      const expectedRequired = [...(record.function.parameters.required ?? [])].sort().join(',');
      if (names !== declared || required !== expectedRequired) mismatches.push(key(record));
    }
    expect(mismatches).toEqual([]);
  });

  it('maps the BFCL type names to IR kinds (counted over every schema node)', () => {
    const kinds: Record<string, number> = {};
    for (const { definition } of imported) {
      definition.parameters.properties.forEach((property) =>
        walk(property.schema, (schema) => (kinds[schema.kind] = (kinds[schema.kind] ?? 0) + 1)),
      );
    }
    // Type names counted over the corpus (every node but the 8,726 root dicts): the IR kinds must add up exactly.
    expect(kinds).toEqual({
      string: 21_854 + 115 /* String */ + 1 /* char */ - 4 /* format: date */,
      date: 4,
      int: 4_757 + 7 /* long */,
      float: 1_690 + 1 /* double */,
      bool: 3_115 + 4 /* Boolean */,
      array: 959 + 66 /* tuple */ + 13 /* Array */ + 6 /* ArrayList */,
      object: 9_464 - 8_726 /* nested dicts */ + 7 /* HashMap */,
      any: 199 + 1 /* "" */ + 3 /* required but undeclared: population.adults, children, singles */,
    });
  });

  it('reads the required-but-undeclared population fields as required properties of any value', () => {
    const waste = imported.find(({ definition }) => definition.name === 'waste_calculation.calculate')!.definition;
    const population = waste.parameters.properties.find((property) => property.name === 'population')!.schema;
    expect(population).toMatchObject({
      kind: 'object',
      properties: [
        { name: 'adults', schema: { kind: 'any' }, required: true },
        { name: 'children', schema: { kind: 'any' }, required: true },
        { name: 'singles', schema: { kind: 'any' }, required: true },
      ],
      additionalProperties: true,
    });
  });

  it('exports every definition stably: export(import(export(import(s)))) equals export(import(s))', () => {
    const unstable: string[] = [];
    for (const { record, definition } of imported) {
      const once = toJsonSchema(definition);
      const twice = toJsonSchema(
        definitionFromJsonSchema({ name: definition.name, parameters: once as Record<string, unknown> }),
      );
      if (JSON.stringify(twice) !== JSON.stringify(once)) unstable.push(key(record));
    }
    expect(unstable).toEqual([]);
  });
});
