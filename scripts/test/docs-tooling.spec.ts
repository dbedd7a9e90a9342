import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * The small scripts behind the README and the site, run as CI runs them: the performance chart drawn from the bench
 * results (and its check, which fails on a stale chart), the internal-references check (which fails on a seed or issue
 * number in the demo's output), and the install sets `npm run pack` prints and docs/installing.md shows.
 */
const ROOT = resolve(__dirname, '..', '..');
const node = (script: string, ...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, 'scripts', script), ...args], { cwd: ROOT, encoding: 'utf8' });
let folder: string;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'toolwright-docs-tooling-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('scripts/bench-chart.mjs', () => {
  it('the committed chart is what the results in bench/results/ give', () => {
    const checked = node('bench-chart.mjs', '--check');
    expect(checked.stderr).toBe('');
    expect(checked.status).toBe(0);
  });

  it('draws every contender at every size from the results, and --check fails on a chart the results no longer give', () => {
    const results = JSON.parse(readFileSync(join(ROOT, 'bench', 'results', 'real-apps.json'), 'utf8'));
    results.roundRobin.medianNs['50']['class:tw'] = 12_345;
    const from = join(folder, 'results.json');
    writeFileSync(from, JSON.stringify(results));
    const out = join(folder, 'chart.svg');
    const drawn = node('bench-chart.mjs', '--from', from, '--out', out);
    expect(drawn.status).toBe(0);
    expect(drawn.stdout).toContain('| 50 commands | 12.3 us | 2.31 us | 3.23 us | 7.98 us | 97.9 us |');
    const svg = readFileSync(out, 'utf8');
    for (const name of ['toolwright', 'hand-written', 'ajv', 'zod 4', 'class-validator'])
      expect(svg).toContain(`>${name}</text>`);
    expect(svg).toContain('toolwright, 50 commands: 12.3 us');
    expect(
      svg.match(/<rect x="[\d.]+" y="[\d.]+" width="[\d.]+" height="[\d.]+" fill="#[0-9a-f]+"><title>/g),
    ).toHaveLength(results.roundRobin.sizes.length * 5);
    const stale = node('bench-chart.mjs', '--from', from, '--check');
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain('is not what');
  });
});

describe('scripts/internal-references.mjs', () => {
  const demo = (text: string) => {
    const file = join(folder, `demo-${Math.random()}.log`);
    writeFileSync(file, text);
    return node('internal-references.mjs', '--demo-output', file);
  };

  it('passes the README and a demo output without references', () => {
    const passed = demo('> The same key twice\n  loop completed after 3 model turns\n');
    expect(passed.stderr).toBe('');
    expect(passed.status).toBe(0);
  });

  it.each(['seed 001', 'Issue 10, class 3: x', 'see ADR 0015', 'decision 0024'])('fails on "%s"', (reference) => {
    const failed = demo(`> ${reference}\n  loop completed after 3 model turns\n`);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain(reference);
  });

  it('refuses an output that is not a whole run of the demo (an empty log would pass trivially)', () => {
    expect(demo('').status).toBe(1);
  });
});

describe('scripts/pack.mjs install sets', () => {
  it('names, for each package, the toolwright packages it needs, as docs/installing.md shows', () => {
    const printed = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { installSet, publishablePackages } from ${JSON.stringify(join(ROOT, 'scripts', 'pack.mjs'))};
         import { readFileSync } from 'node:fs';
         const manifests = publishablePackages().map((d) => JSON.parse(readFileSync(d + '/package.json', 'utf8')));
         console.log(JSON.stringify(Object.fromEntries(manifests.map((m) => [m.name, installSet(m.name, manifests)]))));`,
      ],
      { encoding: 'utf8' },
    );
    expect(printed.stderr).toBe('');
    const sets = JSON.parse(printed.stdout) as Record<string, string[]>;
    expect(sets['@toolwright/cli']).toEqual([
      '@toolwright/core',
      '@toolwright/providers',
      '@toolwright/mcp',
      '@toolwright/cli',
    ]);
    expect(sets['@toolwright/core']).toEqual(['@toolwright/core']);
    // @toolwright/mcp is an optional peer of the Nest module: not in its set.
    expect(sets['@toolwright/nestjs']).toEqual(['@toolwright/core', '@toolwright/providers', '@toolwright/nestjs']);
  });
});
