import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * scripts/jest-no-skipped-tests.cjs in a real jest run: a folder (written here, in a temporary directory) whose suite
 * skips one test and leaves one as a todo must fail the run, naming both; the same suite filtered by name passes.
 */
const REPORTER = resolve(__dirname, '..', 'jest-no-skipped-tests.cjs');
const JEST = require.resolve('jest/bin/jest');
let folder: string;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'toolwright-skipped-'));
  writeFileSync(
    join(folder, 'suite.test.js'),
    [
      "it('runs', () => expect(1).toBe(1));",
      "it.skip('is skipped', () => expect(1).toBe(2));",
      "it.todo('is a todo');",
      '',
    ].join('\n'),
  );
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function jest(...args: string[]) {
  const config = JSON.stringify({ rootDir: folder, reporters: ['default', REPORTER] });
  return spawnSync(process.execPath, [JEST, '--config', config, '--ci', ...args], {
    cwd: folder,
    encoding: 'utf8',
    timeout: 60_000,
  });
}

it('fails a run that skipped a test or left a todo, naming each', () => {
  const result = jest();
  expect(result.stderr).toContain('no-skipped-tests: 2 test(s) did not run:');
  expect(result.stderr).toContain(`${join(folder, 'suite.test.js')}: is skipped (pending)`);
  expect(result.stderr).toContain(`${join(folder, 'suite.test.js')}: is a todo (todo)`);
  expect(result.status).toBe(1);
}, 90_000);

it('passes a run filtered by name (jest -t), whose other tests are skipped on purpose', () => {
  const result = jest('-t', 'runs');
  expect(result.stderr).not.toContain('no-skipped-tests');
  expect(result.status).toBe(0);
}, 90_000);
