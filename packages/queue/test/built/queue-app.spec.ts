import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..', '..');

/** The replay's outcomes as the in-process executor gives them (the built packages, as the example uses them). */
async function inProcessSummary(): Promise<{ summary: string; ok: number; refused: number }> {
  const core = require(join(ROOT, 'packages', 'core', 'dist', 'index.js'));
  const app = require(join(ROOT, 'examples', 'persona-app', 'dist', 'index.js'));
  const executor = new core.PersonaToolExecutor(app.createPersonaRegistry({ logger: core.silentLogger }), {
    logger: core.silentLogger,
  });
  const outcomes = new Map<string, number>();
  for (const replay of app.replayCalls) {
    const result = await executor.execute(replay.call, replay.context);
    const key = result.ok ? 'ok' : result.error.code;
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  }
  const count = app.replayCalls.length as number;
  const ok = outcomes.get('ok') ?? 0;
  return {
    summary: `replayed ${count} calls: ${[...outcomes].map(([key, n]) => `${n} ${key}`).join(', ')}`,
    ok,
    refused: count - ok,
  };
}

/**
 * `node examples/queue-app` as users run it, against the built packages: it starts its own redis-server, two worker
 * processes and the API process, replays the demo's malformed calls and a long report as a pending job.
 */
describe('examples/queue-app', () => {
  it('runs the demo calls through Redis and two workers with the in-process outcomes, refusing invalid ones in the API process', async () => {
    const expected = await inProcessSummary();
    const run = spawnSync(process.execPath, [join(ROOT, 'examples', 'queue-app')], {
      encoding: 'utf8',
      timeout: 110_000,
      env: { ...process.env, REDIS_PORT: '' },
    });
    expect(run.status).toBe(0);
    const out = run.stdout;
    expect(out).toMatch(/^API process \d+, workers \d+ and \d+, Redis on 127\.0\.0\.1:\d+$/m);
    expect(out).toContain(expected.summary);
    expect(expected.ok).toBeGreaterThan(3);
    expect(out.match(/ran as job call_\d+ on a worker/g)).toHaveLength(expected.ok);
    expect(out.match(/refused in the API process \(never reached Redis\)/g)).toHaveLength(expected.refused);
    expect(out).toContain('"sessionId":"session-42"');
    expect(out).not.toContain('attacker-session');
    expect(out).toMatch(/render_report, not waited for -> \{"status":"pending","job_id":"call_report"/);
    expect(out).toMatch(
      /tool_job_status later -> \{"job_id":"call_report","status":"completed","result":\{"topic":"Q3 results","pages":8/,
    );
    expect(out).toContain('queue example: done');
  }, 120_000);
});
