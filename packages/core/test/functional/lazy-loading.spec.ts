import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Startup (issue 26, docs/decisions/0030-lazy-startup.md): importing @toolwright/core, registering class commands,
 * building an executor and calling a tool loads neither chrono-node (the relative-date resolver), nor re2js (the
 * pattern engine, for tools without a `pattern`), nor @opentelemetry/api (until something registers with it), nor the
 * tool search index's stemmer (until the registry is searched). Each
 * run is a fresh Node process on core's sources (ts-node, transpile only), so jest's own module registry plays no part;
 * the runs that use a pattern or resolve a phrase show that the probe sees a package once it is loaded.
 */
const ROOT = resolve(__dirname, '..', '..', '..', '..');
const PROBE = join(__dirname, '..', 'fixtures', 'loaded-modules-probe.ts');
const BUILT_PROBE = join(__dirname, '..', 'fixtures', 'built-bundle-probe.cjs');

interface ProbeResult {
  readonly afterCall: readonly string[];
  readonly afterPattern: readonly string[];
  readonly afterRelativeDate: readonly string[];
  readonly afterLookAlike: readonly string[];
  readonly afterSearch: readonly string[];
  readonly values: readonly unknown[];
}

function probe(): Promise<ProbeResult> {
  return new Promise((resolveProbe, reject) => {
    execFile(
      process.execPath,
      ['-r', 'ts-node/register', PROBE],
      {
        cwd: ROOT,
        timeout: 170_000,
        env: {
          ...process.env,
          TS_NODE_PROJECT: join(ROOT, 'tsconfig.jest.json'),
          TS_NODE_TRANSPILE_ONLY: '1',
          TS_NODE_COMPILER_OPTIONS: JSON.stringify({ rootDir: ROOT }),
        },
      },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`the probe failed: ${error.message}\n${stderr}`));
        else resolveProbe(JSON.parse(stdout) as ProbeResult);
      },
    );
  });
}

describe('lazy loading: what importing core, registering and calling a tool loads', () => {
  // One fresh process (transpiling core's sources takes most of its time, so generous timeouts).
  let result: ProbeResult;
  beforeAll(async () => {
    result = await probe();
  }, 180_000);

  it('calls the tools it registered', () => {
    expect(result.values.slice(0, 2)).toEqual(['Ada:2', 'ABC']);
  });

  it('loads no chrono-node, re2js, @opentelemetry/api, unhomoglyph or search stemmer for class commands without a pattern', () => {
    expect(result.afterCall).toEqual([]);
  });

  it('loads re2js once a tool with a pattern is registered and called, and nothing else', () => {
    expect(result.afterPattern).toEqual(['re2js']);
  });

  it('loads chrono-node when a relative date is resolved', () => {
    expect(result.afterRelativeDate).toEqual(['chrono-node', 're2js']);
  });

  it('loads the confusables data (unhomoglyph) when a key must be folded to be compared with a context name', () => {
    expect(result.afterLookAlike).toEqual(['chrono-node', 're2js', 'unhomoglyph']);
  });

  it('loads the search index and its stemmer (wink-porter2-stemmer) on the first search of the registry', () => {
    expect(result.afterSearch).toEqual(['chrono-node', 're2js', 'unhomoglyph', 'wink-porter2-stemmer']);
    expect(result.values[3]).toEqual(['book_room']);
  });
});

interface BuiltProbeResult {
  readonly afterCall: readonly string[];
  readonly loadedByFirstCall: readonly string[];
  readonly afterApproval: readonly string[];
  readonly oneCopy: { readonly metadata: boolean; readonly errors: boolean; readonly stackMapsToSource: boolean };
  readonly values: readonly unknown[];
}

/**
 * The published form (ADR 0027): core's JavaScript bundled into dist/core.js, which both entry points re-export. A
 * fresh plain Node process (no TypeScript loader, which would load node:crypto itself) on dist/ shows that bundling
 * kept every dependency lazily required, that node:crypto waits for the first approval, and that
 * `@toolwright/core` and `@toolwright/core/internal` share one copy of core.
 */
describe('lazy loading: the built package (one bundled file)', () => {
  let result: BuiltProbeResult;
  beforeAll(async () => {
    const entry = join(ROOT, 'packages', 'core', 'dist', 'index.js');
    if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` (npm test builds first).`);
    result = await new Promise<BuiltProbeResult>((resolveProbe, reject) => {
      execFile(
        process.execPath,
        ['--enable-source-maps', BUILT_PROBE],
        { cwd: ROOT, timeout: 50_000 },
        (error, stdout, stderr) => {
          if (error) reject(new Error(`the probe failed: ${error.message}\n${stderr}`));
          else resolveProbe(JSON.parse(stdout) as BuiltProbeResult);
        },
      );
    });
  }, 60_000);

  it('calls the tools it registered', () => {
    expect(result.values).toEqual(['Ada:2', 'APPROVAL_REQUIRED']);
  });

  it('loads none of the lazy packages, nor node:crypto, to import, register and call', () => {
    expect(result.afterCall).toEqual([]);
  });

  it('loads no Node built-in on the first call (the executor loaded the clock, perf_hooks, when it was built)', () => {
    expect(result.loadedByFirstCall).toEqual([]);
  });

  it('loads node:crypto when a call first waits for approval (its id)', () => {
    expect(result.afterApproval).toEqual(['node:crypto']);
  });

  it('is ASCII, so Node holds it as a one-byte string (a two-byte one made every lazy compile slower)', () => {
    const bundle = readFileSync(join(ROOT, 'packages', 'core', 'dist', 'core.js'), 'utf8');
    expect(bundle.match(/[\u0080-\uffff]/g) ?? []).toEqual([]);
  });

  it('shares one copy of core between its entry points, with stack traces mapped to core sources', () => {
    expect(result.oneCopy).toEqual({ metadata: true, errors: true, stackMapsToSource: true });
  });
});
