#!/usr/bin/env node
// Every relative link in README.md, packages/*/README.md and docs/**/*.md resolves inside the repository: the file
// (or folder) exists, and a `#fragment` names a heading of the target (GitHub's slugs). External links (http:,
// https:, mailto:) are not fetched. Exit 1 with the list of broken links.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// Generated, not written: the site's build and cache, and the API reference TypeDoc writes (npm run docs:build checks
// their links in Chromium, scripts/check-site.mjs).
const GENERATED = new Set([join(ROOT, 'docs', 'api-reference'), join(ROOT, 'docs', '.vitepress')]);

function markdownFiles(directory) {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory())
      return entry.name === 'node_modules' || entry.name === 'dist' || GENERATED.has(path) ? [] : markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** GitHub's heading anchors: lower case, punctuation dropped (except - and _), spaces to -, duplicates numbered. */
function anchors(file) {
  const seen = new Map();
  const result = new Set();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const match = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!match) continue;
    const text = match[1].replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

const files = [
  join(ROOT, 'README.md'),
  ...readdirSync(join(ROOT, 'packages'))
    .map((name) => join(ROOT, 'packages', name, 'README.md'))
    .filter(existsSync),
  ...markdownFiles(join(ROOT, 'docs')),
];
const broken = [];
let checked = 0;
for (const file of files) {
  let fenced = false;
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
      if (fenced) return;
      const code = line.replace(/`[^`]*`/g, '');
      for (const match of code.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
        const target = match[1];
        if (/^(https?:|mailto:)/.test(target)) continue;
        checked++;
        const where = `${relative(ROOT, file)}:${index + 1}`;
        const [pathPart, fragment] = target.split('#');
        const resolved = pathPart === '' ? file : resolve(dirname(file), decodeURIComponent(pathPart));
        if (relative(ROOT, resolved).startsWith('..')) {
          broken.push(`${where}: ${target} points outside the repository`);
          continue;
        }
        if (!existsSync(resolved)) {
          broken.push(`${where}: ${target} does not exist`);
          continue;
        }
        if (
          fragment !== undefined &&
          fragment !== '' &&
          statSync(resolved).isFile() &&
          resolved.endsWith('.md') &&
          !anchors(resolved).has(fragment.toLowerCase())
        ) {
          broken.push(`${where}: ${target}: no heading #${fragment} in ${relative(ROOT, resolved)}`);
        }
      }
    });
}
if (broken.length > 0) {
  process.stderr.write(
    `check-links: ${broken.length} broken link(s) of ${checked}:\n${broken.map((line) => `  - ${line}`).join('\n')}\n`,
  );
  process.exit(1);
}
process.stdout.write(`check-links: ${checked} relative links in ${files.length} Markdown files resolve\n`);
