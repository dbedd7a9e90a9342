import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, requireBuilt } from '../support/run-cli';

/**
 * The `toolwright` bin is a committed shim (packages/cli/bin/toolwright.js) that loads dist/bin.js: npm links a
 * workspace's bins before its build, so a bin inside dist/ was not linked by `npm install` in the repository and
 * `npx toolwright` was not found (issue 31).
 */
const CLI = join(ROOT, 'packages', 'cli');
const manifest = JSON.parse(readFileSync(join(CLI, 'package.json'), 'utf8')) as {
  version: string;
  bin: Record<string, string>;
  files: string[];
};

it('the bin is a committed, executable file outside dist/, and it is published', () => {
  expect(manifest.bin).toEqual({ toolwright: 'bin/toolwright.js' });
  const [mode] = execFileSync('git', ['ls-files', '-s', 'bin/toolwright.js'], { cwd: CLI, encoding: 'utf8' }).split(
    ' ',
  );
  expect(mode).toBe('100755');
  expect(manifest.files).toContain('bin');
});

it('`npx toolwright` runs the built CLI in the repository (npm install linked the shim)', () => {
  requireBuilt();
  const result = spawnSync('npx', ['--no-install', 'toolwright', '--version'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(result.stderr).toBe('');
  expect(result.stdout.trim()).toBe(manifest.version);
  expect(result.status).toBe(0);
}, 90_000);

it('before the build, the shim says what to run instead of a module-not-found stack', () => {
  const folder = mkdtempSync(join(tmpdir(), 'toolwright-shim-'));
  try {
    mkdirSync(join(folder, 'bin'));
    copyFileSync(join(CLI, 'bin', 'toolwright.js'), join(folder, 'bin', 'toolwright.js'));
    const result = spawnSync(process.execPath, [join(folder, 'bin', 'toolwright.js'), '--version'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `toolwright: ${join(folder, 'dist', 'bin.js')} is missing: the CLI is not built. In the toolwright repository run \`npm run build\`.\n`,
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}, 30_000);
