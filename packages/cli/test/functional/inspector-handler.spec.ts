import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PersonaToolExecutor, silentLogger } from '@toolwright/core';
import { createPersonaRegistry } from '../../../../examples/persona-app/src/index';
import { createInspector, InspectorEventLog, type Inspector } from '../../src';

/**
 * The inspector mounted in an application's own HTTP server under /inspector, with the application's executor:
 * token, run gating, body limits, the pass-through for other routes, and the live statistics of that executor.
 */
let server: Server;
let inspector: Inspector;
let base: string;
const events = new InspectorEventLog();
const registry = createPersonaRegistry({ logger: silentLogger });
const appExecutor = new PersonaToolExecutor(registry, { logger: events.tap(silentLogger) });

beforeAll(async () => {
  inspector = createInspector({
    registry,
    executor: appExecutor,
    events,
    token: 'test-token-0123456789',
    logger: silentLogger,
  });
  server = createServer((request, response) => {
    const url = request.url ?? '/';
    if (url === '/inspector' || url.startsWith('/inspector/') || url.startsWith('/inspector?')) {
      // What Express does for app.use('/inspector', handler): strip the mount path, keep originalUrl.
      Object.assign(request, { originalUrl: url, url: url.slice('/inspector'.length) || '/' });
      inspector.handler(request, response, () => {
        response.writeHead(404);
        response.end('app 404');
      });
      return;
    }
    response.writeHead(200);
    response.end('the application');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/inspector/`;
});

afterAll(async () => {
  inspector.close();
  await new Promise((resolve) => server.close(resolve));
});

const headers = { 'x-toolwright-token': 'test-token-0123456789', 'content-type': 'application/json' };
const post = (path: string, body: unknown, extra: Record<string, string> = {}) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { ...headers, ...extra },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('the inspector as a request handler', () => {
  it('serves the page under its mount path (redirecting to the trailing slash) and passes other paths on', async () => {
    const redirect = await fetch(`${base.slice(0, -1)}?token=test-token-0123456789`, { redirect: 'manual' });
    expect(redirect.status).toBe(308);
    expect(redirect.headers.get('location')).toBe('/inspector/?token=test-token-0123456789');
    const page = await fetch(`${base}?token=test-token-0123456789`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(
      '<meta name="toolwright-inspector" content="{&quot;token&quot;:&quot;test-token-0123456789&quot;,&quot;allowRun&quot;:false}">',
    );
    expect((await fetch(`${base}elsewhere`)).status).toBe(404);
    expect(await (await fetch(`${base}elsewhere`)).text()).toBe('app 404');
  });

  it('prepares without a run permission, and refuses to run a handler', async () => {
    const prepared = await post('api/call', {
      tool: 'get_calendar_events',
      arguments: { resolved_datetimes: '2026-11-23T09:00:00+01:00', job_id: 'from-model' },
    });
    expect(prepared.status).toBe(200);
    const { report } = (await prepared.json()) as {
      report: { ok: boolean; params: unknown; transformations: Array<{ rule: string }> };
    };
    expect(report.ok).toBe(true);
    expect(report.transformations.map((transformation) => transformation.rule)).toEqual([
      'single-to-array',
      'dropped-context-field',
    ]);
    const run = await post('api/call', { tool: 'get_calendar_events', arguments: {}, run: true, confirm: true });
    expect(run.status).toBe(403);
    expect(((await run.json()) as { error: string }).error).toContain('Start it with --allow-run');
  });

  it('refuses bad requests with a reason: no JSON content type, bad JSON, too large, a bad context, an unreadable call', async () => {
    expect((await post('api/call', '{}', { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await post('api/call', '{not json')).status).toBe(400);
    expect((await post('api/call', { tool: 'x', arguments: 'a'.repeat(1024 * 1024 + 10) })).status).toBe(413);
    const context = await post('api/call', { tool: 'get_calendar_events', context: { sessionId: 7 } });
    expect(context.status).toBe(400);
    expect(((await context.json()) as { error: string }).error).toContain('"sessionId" must be a string');
    const unreadable = await post('api/playground', { input: 'hello', shape: 'auto' });
    expect(unreadable.status).toBe(400);
    expect((await fetch(`${base}api/registry`)).status).toBe(401);
  });

  it('a hostile argument object pollutes nothing', async () => {
    const response = await post('api/playground', {
      input: '{"__proto__": {"polluted": true}, "resolved_datetimes": "2026-11-23T09:00:00+01:00"}',
      shape: 'arguments',
      tool: 'get_calendar_events',
    });
    expect(response.status).toBe(200);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('the statistics are the application executor’s: its own calls and security events show up', async () => {
    await appExecutor.execute(
      { id: 'app-1', name: 'publish_article', arguments: { channel: 'blog', session_id: 'attacker' } },
      { persona: { permissions: ['publish'] }, dataPackets: [{ content: { title: 't', body: 'b' } }] },
    );
    const stats = (await (await fetch(`${base}api/stats`, { headers })).json()) as {
      transformations: Array<{ tool: string; rule: string; count: number }>;
      securityEvents: number;
      events: Array<{ tool: string }>;
    };
    expect(stats.transformations).toContainEqual({ tool: 'publish_article', rule: 'dropped-context-field', count: 1 });
    expect(stats.securityEvents).toBeGreaterThanOrEqual(2);
    expect(stats.events.map((event) => event.tool)).toEqual(
      expect.arrayContaining(['publish_article', 'get_calendar_events']),
    );
  });
});
