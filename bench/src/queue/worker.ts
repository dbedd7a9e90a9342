import 'reflect-metadata';
import { silentLogger } from '@toolwright/core';
import { createToolWorker } from '@toolwright/queue';
import { benchRegistry, connection, replicaWait, SEALING_KEY } from './tools';

const toolWorker = createToolWorker(benchRegistry(), {
  connection: connection(),
  queueName: process.env.QUEUE_NAME,
  concurrency: 16,
  logger: silentLogger,
  sealingKey: SEALING_KEY,
  ...replicaWait(),
});
void toolWorker.worker.waitUntilReady().then(() => process.stdout.write('ready\n'));
process.once('SIGTERM', () => void toolWorker.close().then(() => process.exit(0)));
