#!/usr/bin/env node
'use strict';
/**
 * Runs every client scenario of the official MCP conformance suite against our client
 * (test/conformance/conformance-client.js, which uses the built packages: run `npm run build` first), each with the
 * expected-failures baseline, a few at a time (the suite's own parallel mode starts all 26 clients at once, which
 * times out on small CI machines). Exits 1 on any unexpected failure or stale baseline entry. Offline: the suite
 * starts its scenario servers on localhost.
 */
const { spawn, spawnSync } = require('node:child_process');
const { existsSync, mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');

const ROOT = resolve(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const CLIENT = join(__dirname, '..', 'test', 'conformance', 'conformance-client.js');
const EXPECTED_FAILURES = join(__dirname, '..', 'test', 'conformance', 'expected-failures.yml');
const CONCURRENCY = 3;

function node22() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const local = join(ROOT, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(local))
    throw new Error(`The conformance suite needs Node >= 22 and ${local} is missing (npm install brings it).`);
  return local;
}

function clientScenarios(node) {
  const listed = spawnSync(node, [CLI, 'list'], { encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`conformance list failed:\n${listed.stderr}`);
  const section = listed.stdout.slice(listed.stdout.indexOf('Client scenarios'));
  return [...section.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]);
}

function run(node, scenario) {
  return new Promise((resolvePromise) => {
    const started = Date.now();
    const child = spawn(
      node,
      [
        CLI,
        'client',
        '--command',
        `"${node}" "${CLIENT}"`,
        '--scenario',
        scenario,
        '--timeout',
        '30000',
        '--expected-failures',
        EXPECTED_FAILURES,
      ],
      {
        cwd: mkdtempSync(join(tmpdir(), 'toolwright-conformance-')),
        env: { ...process.env, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolvePromise({ scenario, code, output, seconds: (Date.now() - started) / 1000 }));
  });
}

async function main() {
  if (!existsSync(join(ROOT, 'packages', 'mcp', 'dist', 'index.js')))
    throw new Error('packages/mcp is not built: run `npm run build` first.');
  const node = node22();
  const scenarios = clientScenarios(node);
  const results = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < scenarios.length) {
        const result = await run(node, scenarios[next++]);
        results.push(result);
        const passed = /OVERALL: PASSED/.test(result.output);
        const verdict = result.code === 0 ? (passed ? 'pass' : 'expected failure') : 'UNEXPECTED';
        process.stdout.write(`${verdict.padEnd(16)} ${result.scenario} (${result.seconds.toFixed(1)} s)\n`);
      }
    }),
  );
  const bad = results.filter((result) => result.code !== 0);
  for (const result of bad) process.stdout.write(`\n===== ${result.scenario} =====\n${result.output}\n`);
  process.stdout.write(
    `\nconformance (client): ${results.length - bad.length}/${results.length} scenarios match the baseline\n`,
  );
  process.exitCode = bad.length === 0 ? 0 : 1;
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exitCode = 1;
});
