import 'reflect-metadata';
import { ToolRegistry, silentLogger } from '@toolwright/core';

/** The queue bench's tool: a 4-field call with a tiny handler, so the numbers are the pipeline's and the queue's. */
export function benchRegistry(): ToolRegistry {
  const registry = new ToolRegistry({ logger: silentLogger });
  registry.registerJsonSchemaTool(
    {
      name: 'record_order',
      description: 'Record an order',
      parameters: {
        type: 'object',
        properties: {
          order_id: { type: 'string' },
          quantity: { type: 'integer', minimum: 1 },
          express: { type: 'boolean' },
          tags: { type: 'array', items: { type: 'string' } },
        },
        required: ['order_id', 'quantity'],
        additionalProperties: false,
      },
    },
    (params) => ({ stored: params.order_id }),
  );
  return registry;
}

/** The key producer and workers share (it signs every job; the bench tool has no sensitive parameter to seal). */
export const SEALING_KEY = 'queue bench sealing key';

export const connection = () => ({
  host: '127.0.0.1',
  port: Number(process.env.REDIS_PORT),
  maxRetriesPerRequest: null,
});
