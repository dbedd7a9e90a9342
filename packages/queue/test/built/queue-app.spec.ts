import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * `node examples/queue-app` as users run it, against the built packages: it starts its own redis-server, two worker
 * processes and the API process, replays the demo's malformed calls and a long report as a pending job.
 */
describe('examples/queue-app', () => {
  it('runs the demo calls through Redis and two workers, refusing invalid ones in the API process', () => {
    const run = spawnSync(process.execPath, [join(__dirname, '..', '..', '..', '..', 'examples', 'queue-app')], {
      encoding: 'utf8',
      timeout: 110_000,
      env: { ...process.env, REDIS_PORT: '' },
    });
    expect(run.status).toBe(0);
    const out = run.stdout;
    expect(out).toMatch(/^API process \d+, workers \d+ and \d+, Redis on 127\.0\.0\.1:\d+$/m);
    expect(out).toContain('replayed 9 calls: 4 ok, 2 INVALID_ARGUMENTS, 1 MALFORMED_ARGUMENTS, 1 UNKNOWN_TOOL, 1 PERMISSION_DENIED');
    expect(out.match(/ran as job call_\d on a worker/g)).toHaveLength(4);
    expect(out.match(/refused in the API process \(never reached Redis\)/g)).toHaveLength(5);
    expect(out).toContain('"sessionId":"session-42"');
    expect(out).not.toContain('attacker-session');
    expect(out).toMatch(/render_report, not waited for -> \{"status":"pending","job_id":"call_report"/);
    expect(out).toMatch(/tool_job_status later -> \{"job_id":"call_report","status":"completed","result":\{"topic":"Q3 results","pages":8/);
    expect(out).toContain('queue example: done');
  }, 120_000);
});
