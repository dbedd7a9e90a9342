import 'reflect-metadata';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger, type Logger, type PersonaToolExecutor, type ToolRegistry } from '@toolwright/core';
import { createPersonaRegistry } from '../../../../examples/persona-app/src/index';
// Loaded here, before the tests, so the block's own import of it inside the timed test is already in the cache.
import '@toolwright/cli';
import { blocksOf, compileBlocks, runBlock } from '../../../core/test/docs/doc-blocks';

// The block is read from docs/inspector.md itself; its context comment declares `registry` and `appLogger`.
const block = blocksOf('docs/inspector.md').find((candidate) => candidate.code.includes('createInspector('))!;

async function startAppWithInspector(
  registry: ToolRegistry,
  appLogger: Logger,
): Promise<{ server: Server; inspectorPath: string; executor: PersonaToolExecutor }> {
  const { server, inspectorPath, executor } = await runBlock(block, { registry, appLogger });
  return {
    server: server as Server,
    inspectorPath: inspectorPath as string,
    executor: executor as PersonaToolExecutor,
  };
}

describe('docs/inspector.md: mounting the inspector in an application', () => {
  it('is on the page and compiles as written', () => {
    expect(block.code).toContain('inspector.handler(request, response)');
    expect([...compileBlocks([block]).values()].flat()).toEqual([]);
  });

  it('runs: the app answers its own routes, the inspector its page and API behind the token, with the app executor', async () => {
    const { server, inspectorPath, executor } = await startAppWithInspector(
      createPersonaRegistry({ logger: silentLogger }),
      silentLogger,
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      expect((await fetch(`${origin}/orders`)).status).toBe(404);
      const page = await fetch(`${origin}${inspectorPath}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<title>toolwright inspector</title>');
      expect((await fetch(`${origin}/inspector/`)).status).toBe(401);
      const token = new URL(`${origin}${inspectorPath}`).searchParams.get('token')!;
      await executor.execute({
        id: 'c1',
        name: 'get_calendar_events',
        arguments: '{"resolved_datetimes": "2026-11-23T09:00:00+01:00", "job_id": "from-model"}',
      });
      const stats = (await (
        await fetch(`${origin}/inspector/api/stats`, { headers: { 'x-toolwright-token': token } })
      ).json()) as { securityEvents: number; events: Array<{ message: string }> };
      expect(stats.securityEvents).toBe(1);
      expect(stats.events[0]!.message).toContain('"job_id" of get_calendar_events');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
