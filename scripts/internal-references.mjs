#!/usr/bin/env node
// User-facing text never names the project's own bookkeeping: seed, issue, ADR or decision numbers, "class N:" of an
// issue. One pattern, used by this check (the README and the demo's output) and by scripts/check-site.mjs (every page
// of the built site except the decision records and their measurement log, which are where those numbers belong).
// Usage: node scripts/internal-references.mjs [--demo-output <file>]   (CI passes the log of `npm run demo`)
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The pattern (case-insensitive): `seed 001`, `issue 10`, `ADR 0015`, `decision 0024`, `class 3:`. */
export const INTERNAL_REFERENCE = /seed [0-9]{3}|issue [0-9]+|ADR [0-9]{4}|decision [0-9]{4}|class [0-9]+:/i;

/** Each line of `text` that matches, as `{ line, text }` (1-based). */
export function internalReferences(text) {
  return text
    .split('\n')
    .map((line, index) => ({ line: index + 1, text: line }))
    .filter(({ text: line }) => INTERNAL_REFERENCE.test(line));
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const sources = [['README.md', readFileSync(join(ROOT, 'README.md'), 'utf8')]];
  const at = process.argv.indexOf('--demo-output');
  if (at !== -1) {
    if (!process.argv[at + 1]) throw new Error('--demo-output needs the file npm run demo wrote');
    const output = readFileSync(resolve(process.argv[at + 1]), 'utf8');
    // An empty or truncated log would pass trivially: the demo's last section must be there.
    if (!/loop completed/.test(output)) throw new Error(`${process.argv[at + 1]} is not a whole run of npm run demo`);
    sources.push(['the output of npm run demo', output]);
  }
  const found = sources.flatMap(([name, text]) =>
    internalReferences(text).map(({ line, text: content }) => `${name}:${line}: ${content.trim()}`),
  );
  if (found.length > 0) {
    process.stderr.write(
      `internal-references: ${found.length} line(s) name a seed, issue, ADR or decision number:\n${found.map((line) => `  ${line}`).join('\n')}\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`internal-references: none in ${sources.map(([name]) => name).join(' or ')}\n`);
}
