import 'reflect-metadata';
import { ToolRegistry, silentLogger } from '@toolwright/core';
import type { QueueConnectionOptions } from '@toolwright/queue';
import { Cluster } from 'ioredis';

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

/** The single node (REDIS_PORT) or, with REDIS_CLUSTER_PORTS (comma-separated), an ioredis Cluster. */
export const connection = (): QueueConnectionOptions['connection'] =>
  process.env.REDIS_CLUSTER_PORTS
    ? new Cluster(
        process.env.REDIS_CLUSTER_PORTS.split(',').map((port) => ({ host: '127.0.0.1', port: Number(port) })),
        { redisOptions: { maxRetriesPerRequest: null }, retryDelayOnClusterDown: 200, maxRedirections: 100 },
      )
    : { host: '127.0.0.1', port: Number(process.env.REDIS_PORT), maxRetriesPerRequest: null };

/** `waitForReplicas` from WAIT_REPLICAS (`<replicas>:<timeout ms>`), when set. */
export const replicaWait = () => {
  const [replicas, timeoutMs] = (process.env.WAIT_REPLICAS ?? '').split(':').map(Number);
  return replicas && timeoutMs ? { waitForReplicas: { replicas, timeoutMs } } : {};
};
