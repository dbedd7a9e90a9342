import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * scripts/setup-test-machine.sh on a machine without redis-server and Chromium, without uninstalling anything (other
 * people on this machine use them): the script runs with a PATH that holds only `id` and `apt-get` (never run: the
 * root case is a --dry-run), CHROMIUM_PATH names a file that does not exist, and TOOLWRIGHT_OS_RELEASE presents the
 * distribution. The non-root case runs as user nobody (setpriv) when the test runs as root, the root case in a user
 * namespace (unshare --map-root-user) when it does not.
 */
const SOURCE = resolve(__dirname, '..', 'setup-test-machine.sh');
const isRoot = process.getuid?.() === 0;
let bin: string;
let noChromium: string;
/** A copy of the script user nobody can read: the clone may sit in a directory only its owner enters (mktemp -d). */
let SCRIPT: string;

beforeAll(() => {
  bin = mkdtempSync(join(tmpdir(), 'toolwright-setup-test-'));
  chmodSync(bin, 0o755); // readable by user nobody
  for (const tool of ['id', 'apt-get']) symlinkSync(`/usr/bin/${tool}`, join(bin, tool));
  writeFileSync(join(bin, 'debian'), 'ID=debian\n');
  writeFileSync(join(bin, 'ubuntu'), 'ID=ubuntu\nID_LIKE=debian\n');
  writeFileSync(join(bin, 'fedora'), 'ID=fedora\n');
  noChromium = join(bin, 'no-chromium');
  const scripts = join(bin, 'scripts');
  mkdirSync(scripts, { mode: 0o755 });
  SCRIPT = join(scripts, 'setup-test-machine.sh');
  copyFileSync(SOURCE, SCRIPT);
  chmodSync(SCRIPT, 0o644);
});
afterAll(() => rmSync(bin, { recursive: true, force: true }));

function setup(options: { as: 'root' | 'user'; os: string; chromium?: string; args?: string[]; path?: string }) {
  const wrap =
    options.as === 'user'
      ? isRoot
        ? ['/usr/bin/setpriv', '--reuid=65534', '--regid=65534', '--clear-groups']
        : []
      : isRoot
        ? []
        : ['/usr/bin/unshare', '--map-root-user'];
  const command = [...wrap, '/bin/bash', SCRIPT, ...(options.args ?? [])];
  const env: Record<string, string> = { PATH: options.path ?? bin, TOOLWRIGHT_OS_RELEASE: join(bin, options.os) };
  if (options.chromium !== undefined) env['CHROMIUM_PATH'] = options.chromium;
  const result = spawnSync(command[0]!, command.slice(1), { env, encoding: 'utf8', timeout: 30_000 });
  return { status: result.status, stderr: result.stderr, stdout: result.stdout };
}

it('as a user on Debian: stops with the exact apt-get command and installs nothing', () => {
  const result = setup({ as: 'user', os: 'debian', chromium: noChromium });
  expect(result.status).toBe(1);
  expect(result.stderr).toContain('missing: redis-server (not on PATH)');
  expect(result.stderr).toContain(
    '  sudo apt-get update && sudo apt-get install -y --no-install-recommends redis-server redis-tools\n',
  );
  expect(result.stderr).toContain(`  CHROMIUM_PATH=${noChromium} is not an executable`);
  expect(result.stdout).toBe('');
});

it('as root on Debian, --dry-run: names the apt-get commands it would run', () => {
  const result = setup({ as: 'root', os: 'debian', args: ['--dry-run'], chromium: noChromium });
  expect(result.stderr).toContain(
    'dry run, would run: apt-get update && apt-get install -y --no-install-recommends redis-server redis-tools\n',
  );
  // Chromium at a CHROMIUM_PATH that does not exist is not apt-get's to fix: the run still stops, saying so.
  expect(result.status).toBe(1);
  expect(result.stderr).toContain(`CHROMIUM_PATH=${noChromium} is not an executable`);
});

it('on Ubuntu: Redis from apt-get; a CHROMIUM_PATH that names nothing is reported', () => {
  const result = setup({ as: 'user', os: 'ubuntu' });
  // /usr/bin/chromium exists on this machine: the test hides it by CHROMIUM_PATH.
  expect(result.status).toBe(1);
  expect(result.stderr).toContain('sudo apt-get install -y --no-install-recommends redis-server redis-tools');
  const hidden = setup({ as: 'user', os: 'ubuntu', chromium: noChromium });
  expect(hidden.stderr).toContain(`CHROMIUM_PATH=${noChromium} is not an executable`);
});

it('on another system than Debian or Ubuntu: stops and says what to install', () => {
  const result = setup({ as: 'root', os: 'fedora', args: [] });
  expect(result.status).toBe(1);
  expect(result.stderr).toContain('install Redis 6.2 or newer (the redis-server binary)');
  expect(result.stderr).not.toContain('apt-get install');
});

it('with both found (this machine, as npm test left it): exits 0 and says where they are', () => {
  const result = setup({ as: 'user', os: 'debian', path: process.env['PATH'] ?? '' });
  expect(result.stderr).toMatch(/redis-server \(\/.+\) and Chromium \(\/usr\/bin\/chromium\) found/);
  expect(result.status).toBe(0);
});

it('refuses an unknown argument', () => {
  const result = setup({ as: 'user', os: 'debian', args: ['--yes'] });
  expect(result.status).toBe(2);
  expect(result.stderr).toContain('unknown argument --yes');
});
