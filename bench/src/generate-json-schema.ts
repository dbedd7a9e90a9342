import type { JsonSchemaToolDeclaration } from '@toolwright/core';

/**
 * Programmatic JSON-Schema tools (as an MCP server or a config file declares them) for the registry-size and memory
 * cases: the five shapes of generate-toolwright.ts, each tool with its own schema objects.
 */

export interface GeneratedJsonSchemaTool {
  readonly name: string;
  readonly declaration: JsonSchemaToolDeclaration;
  readonly handler: (params: Record<string, unknown>) => unknown;
  /** Valid arguments for it (JSON text). */
  readonly sampleArguments: string;
}

const SHAPES = ['search', 'filter', 'charge', 'fetch', 'order'] as const;

function parametersFor(shape: number): { parameters: Record<string, unknown>; sample: Record<string, unknown> } {
  switch (shape) {
    case 0:
      return {
        parameters: {
          type: 'object',
          properties: {
            query: { type: 'string', minLength: 1, maxLength: 200, description: 'Text to search for' },
            limit: { type: 'integer', minimum: 1, maximum: 100, description: 'How many results' },
            includeArchived: { type: 'boolean', description: 'Include archived items' },
          },
          required: ['query'],
          additionalProperties: false,
        },
        sample: { query: 'quarterly report', limit: 20, includeArchived: false },
      };
    case 1:
      return {
        parameters: {
          type: 'object',
          properties: {
            status: { type: 'string', enum: ['open', 'closed', 'pending'], description: 'Status to keep' },
            since: { type: 'string', format: 'date-time', description: 'Only items changed since' },
            tags: { type: 'array', items: { type: 'string' }, maxItems: 20, description: 'Tags to match' },
          },
          required: ['status', 'since', 'tags'],
          additionalProperties: false,
        },
        sample: { status: 'open', since: '2026-01-31T09:00:00+01:00', tags: ['a', 'b'] },
      };
    case 2:
      return {
        parameters: {
          type: 'object',
          properties: {
            amount: { type: 'number', minimum: 0, description: 'Amount to charge' },
            currency: { type: 'string', enum: ['EUR', 'USD', 'GBP'], description: 'Currency' },
            note: { type: 'string', maxLength: 500, description: 'Note on the statement' },
          },
          required: ['amount', 'currency'],
          additionalProperties: false,
        },
        sample: { amount: 12.5, currency: 'EUR', note: 'order 42' },
      };
    case 3:
      return {
        parameters: {
          type: 'object',
          properties: {
            id: { type: 'string', pattern: '^[a-z0-9-]+$', description: 'Record id' },
            fields: { type: 'array', items: { type: 'string' }, description: 'Fields to return' },
            dryRun: { type: 'boolean', description: 'Only show what would happen' },
          },
          required: ['id', 'fields'],
          additionalProperties: false,
        },
        sample: { id: 'rec-42', fields: ['name', 'email'] },
      };
    default:
      return {
        parameters: {
          type: 'object',
          properties: {
            items: {
              type: 'array',
              minItems: 1,
              description: 'Order lines',
              items: {
                type: 'object',
                properties: {
                  sku: { type: 'string', minLength: 1, description: 'Stock keeping unit' },
                  quantity: { type: 'integer', minimum: 1, maximum: 999, description: 'How many' },
                },
                required: ['sku', 'quantity'],
                additionalProperties: false,
              },
            },
            customer: { type: 'string', description: 'Customer id' },
          },
          required: ['items', 'customer'],
          additionalProperties: false,
        },
        sample: { items: [{ sku: 'A-1', quantity: 2 }], customer: 'c-7' },
      };
  }
}

/** `count` JSON-Schema tools; names `json_<index>_<shape>`. */
export function generateJsonSchemaTools(count: number, offset = 0): GeneratedJsonSchemaTool[] {
  const tools: GeneratedJsonSchemaTool[] = [];
  for (let n = 0; n < count; n++) {
    const index = n + offset;
    const shape = index % SHAPES.length;
    const name = `json_${index}_${SHAPES[shape]}`;
    const { parameters, sample } = parametersFor(shape);
    tools.push({
      name,
      declaration: { name, description: `Generated JSON-Schema tool ${index}`, parameters },
      handler: () => index,
      sampleArguments: JSON.stringify(sample),
    });
  }
  return tools;
}
