import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { silentLogger } from '@toolwright/core';
import { createPersonaRegistry } from '../../../../examples/persona-app/src/index';
import { startAppWithInspector } from '../../../../docs/snippets/inspector';

const ROOT = join(__dirname, '..', '..', '..', '..');

describe('docs/inspector.md: mounting the inspector in an application', () => {
  it('the page shows the snippet line for line', () => {
    const page = readFileSync(join(ROOT, 'docs', 'inspector.md'), 'utf8');
    const snippet = readFileSync(join(ROOT, 'docs', 'snippets', 'inspector.ts'), 'utf8');
    const body = snippet.slice(snippet.indexOf('// --- snippet start') + '// --- snippet start'.length, snippet.indexOf('  // --- snippet end'));
    for (const line of body.split('\n').map((entry) => entry.trim()).filter((entry) => entry !== '')) expect(page).toContain(line);
  });

  it('runs: the app answers its own routes, the inspector its page and API behind the token, with the app executor', async () => {
    const { server, inspectorPath, executor } = startAppWithInspector(createPersonaRegistry({ logger: silentLogger }), silentLogger);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      expect((await fetch(`${origin}/orders`)).status).toBe(404);
      const page = await fetch(`${origin}${inspectorPath}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<title>toolwright inspector</title>');
      expect((await fetch(`${origin}/inspector/`)).status).toBe(401);
      const token = new URL(`${origin}${inspectorPath}`).searchParams.get('token')!;
      await executor.execute({ id: 'c1', name: 'get_calendar_events', arguments: '{"resolved_datetimes": "2026-11-23T09:00:00+01:00", "job_id": "from-model"}' });
      const stats = (await (await fetch(`${origin}/inspector/api/stats`, { headers: { 'x-toolwright-token': token } })).json()) as { securityEvents: number; events: Array<{ message: string }> };
      expect(stats.securityEvents).toBe(1);
      expect(stats.events[0]!.message).toContain('"job_id" of get_calendar_events');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
