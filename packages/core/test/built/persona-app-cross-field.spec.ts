import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The demo as users run it (`npm run demo` = `node examples/persona-app` on the built output; `npm test` builds first):
 * its cross-field section shows the call that breaks book_meeting's rules, the message the model got, and the fixed retry.
 */
const ROOT = resolve(__dirname, '..', '..', '..', '..');
const MAIN = join(ROOT, 'examples', 'persona-app', 'dist', 'main.js');

function runDemo(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'examples', 'persona-app')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stdout, stderr });
    });
  });
}

describe('examples/persona-app: the cross-field example in the demo', () => {
  beforeAll(() => {
    if (!existsSync(MAIN)) throw new Error(`Not built: ${MAIN}. Run \`npm run build\` (npm test does) first.`);
  });

  it('prints the rule-breaking call, the model-facing message, and the fixed retry', async () => {
    const { code, stdout, stderr } = await runDemo();
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const start = stdout.indexOf('5. A cross-field rule (@Command({ validate }))');
    expect(start).toBeGreaterThan(-1);
    const section = stdout.slice(start);
    expect(section).toContain(
      [
        '  fix   room: enum-case',
        '  error INVALID_ARGUMENTS (attempt 1, 2 retries allowed): sent back to the model:',
        '        The arguments for "book_meeting" are invalid:',
        '        - "end" (2026-11-23T14:00:00+01:00) must be after "start" (2026-11-23T15:00:00+01:00).',
        '        - Send exactly one of "room" or "video_link".',
        '        Fix these arguments and call "book_meeting" again.',
        '        (Attempt 1 failed; 2 retries left. Send the call again with corrected arguments.)',
      ].join('\n'),
    );
    expect(section).toContain(
      '        {"start":"2026-11-23T14:00:00+01:00","end":"2026-11-23T15:00:00+01:00","where":"Atlas"}',
    );
    expect(section).toContain(
      '  loop completed after 3 model turns: "The review is booked in Atlas from 14:00 to 15:00."',
    );
  }, 30_000);
});
