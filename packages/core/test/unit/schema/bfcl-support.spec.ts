import 'reflect-metadata';
import {
  BFCL_GROUND_TRUTH_FILES,
  BFCL_TYPE_NAMES,
  bfclToJsonSchema,
  loadBfclEntries,
  loadBfclGroundTruth,
} from '../../support/bfcl';

describe('test/support/bfcl', () => {
  it('maps every BFCL type name, recursively, and keeps the other keywords as written', () => {
    expect(
      bfclToJsonSchema({
        type: 'dict',
        properties: {
          point: { type: 'tuple', items: { type: 'float' }, description: 'x, y' },
          options: {
            type: 'HashMap',
            properties: { depth: { type: 'long' }, ratio: { type: 'double' } },
            required: ['depth'],
          },
          code: { type: 'char', optional: true },
          anything: { type: 'any', description: 'any value' },
          nested: { type: 'dict', properties: { empty: { type: '' } } },
          names: { type: 'ArrayList', items: { type: 'String' } },
          flags: { type: 'Array', items: { type: 'Boolean' } },
        },
        required: ['point'],
      }),
    ).toEqual({
      type: 'object',
      properties: {
        point: { type: 'array', items: { type: 'number' }, description: 'x, y' },
        options: {
          type: 'object',
          properties: { depth: { type: 'integer' }, ratio: { type: 'number' } },
          required: ['depth'],
        },
        code: { type: 'string', optional: true },
        anything: { description: 'any value' },
        nested: { type: 'object', properties: { empty: {} } },
        names: { type: 'array', items: { type: 'string' } },
        flags: { type: 'array', items: { type: 'boolean' } },
      },
      required: ['point'],
    });
    expect(BFCL_TYPE_NAMES.size).toBe(19);
  });

  it('throws on a type name it does not know, so a new corpus quirk is noticed', () => {
    expect(() => bfclToJsonSchema({ type: 'set' })).toThrow('Unknown BFCL type name "set"');
  });

  it('loads entries and ground truth that line up 1:1, in order', () => {
    for (const file of BFCL_GROUND_TRUTH_FILES) {
      const entries = loadBfclEntries(file);
      const truths = loadBfclGroundTruth(file);
      expect(truths.map((truth) => truth.id)).toEqual(entries.map((entry) => entry.id));
    }
    const first = loadBfclGroundTruth('BFCL_v4_simple_python.json')[0]!;
    expect(first).toEqual({
      id: 'simple_python_0',
      ground_truth: [{ calculate_triangle_area: { base: [10], height: [5], unit: ['units', ''] } }],
    });
    expect(loadBfclEntries('BFCL_v4_simple_python.json')[0]!.function[0]!.name).toBe('calculate_triangle_area');
  });
});
