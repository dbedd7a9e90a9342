// Labels the reading search's property-test cases with the brute-force oracle (packages/core/test/support/
// label-damaged-calls.ts) and writes packages/core/test/fixtures/damaged-call-labels.txt. Usage: node
// scripts/label-damaged-calls.mjs [count] [workers]. Slow (CPU minutes): run it once, offline, with low priority
// (nice -n 19); the workers label ranges of seeds side by side.
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, isMainThread, workerData } from 'node:worker_threads';

if (isMainThread) {
  const count = Number(process.argv[2] ?? 100_000);
  const workers = Number(process.argv[3] ?? 2);
  const directory = mkdtempSync(join(tmpdir(), 'label-damaged-calls-'));
  process.stderr.write(`parts in ${directory}\n`);
  const bundle = join(directory, 'label.cjs');
  await build({
    entryPoints: ['packages/core/test/support/label-damaged-calls.ts'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: bundle,
    logLevel: 'warning',
  });
  const size = Math.ceil(count / workers);
  const parts = [];
  await Promise.all(
    Array.from({ length: workers }, (_, index) => {
      const from = index * size;
      const to = Math.min(count, from + size);
      const output = join(directory, `part-${index}.txt`);
      parts.push(output);
      const worker = new Worker(new URL(import.meta.url), { workerData: { bundle, from, to, output } });
      return new Promise((resolve, reject) => {
        worker.on('error', reject);
        worker.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`worker ${index} exited ${code}`))));
      });
    }),
  );
  writeFileSync(
    'packages/core/test/fixtures/damaged-call-labels.txt',
    parts.map((part) => readFileSync(part, 'utf8')).join(''),
  );
} else {
  const { bundle, from, to, output } = workerData;
  const { labelDamagedCalls } = await import(pathToFileURL(bundle).href);
  const started = Date.now();
  labelDamagedCalls(from, to, output, (done) =>
    process.stderr.write(`seeds from ${from}: ${done} labelled in ${Math.round((Date.now() - started) / 1000)} s\n`),
  );
}
