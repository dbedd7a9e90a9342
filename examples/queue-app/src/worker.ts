// A worker process: `REDIS_PORT=6379 node examples/queue-app/dist/worker.js`. SIGTERM finishes in-flight jobs, then exits.
import 'reflect-metadata';
import { createToolWorker } from '@toolwright/queue';
import { createQueueAppRegistry, redisConnection } from './tools';
import { stderrLogger } from './stderr-logger';

const toolWorker = createToolWorker(createQueueAppRegistry(), {
  connection: redisConnection(),
  ...(process.env.QUEUE_NAME ? { queueName: process.env.QUEUE_NAME } : {}),
  concurrency: Number(process.env.CONCURRENCY ?? 4),
  logger: stderrLogger,
  ...(process.env.SEALING_KEY ? { sealingKey: process.env.SEALING_KEY } : {}),
});
void toolWorker.worker.waitUntilReady().then(() => process.stdout.write(`worker ${process.pid} ready\n`));
process.once('SIGTERM', () => {
  void toolWorker.close().then(() => process.exit(0));
});
