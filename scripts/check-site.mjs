#!/usr/bin/env node
// `npm run docs:check` (after `npm run docs:build`): the built documentation site in headless Chromium, served on
// 127.0.0.1 from docs/.vitepress/dist/ as a static host would serve it.
//   - every page of the build is loaded (every .html file, API reference included) with no console error, no page
//     error and no failed request of the site's own;
//   - every internal link on every page is followed: its page answers 200 and, for a link with #anchor, the anchor is
//     an id on that page;
//   - the site search (VitePress local search) finds a page for a query and opens it, and says so when nothing matches;
//   - no page's text, except the decision records (docs/decisions) and their measurement log (performance-notes),
//     names a seed, issue, ADR or decision number.
// Chromium: /usr/bin/chromium, or CHROMIUM_PATH (scripts/setup-test-machine.sh installs it).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
/* global document */
import { internalReferences } from './internal-references.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'docs', '.vitepress', 'dist');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const require = createRequire(join(ROOT, 'package.json'));
const log = (text) => process.stdout.write(`check-site: ${text}\n`);
const problems = [];
/**
 * Pages where seed, issue, ADR and decision numbers belong: the decision records, and the measurement log split out of
 * them (performance-notes, which they link into). Every other page must name none.
 */
const RECORD_PAGES = /^\/(decisions\/|performance-notes\.html$)/;
const problem = (text) => problems.push(text);

if (!existsSync(join(DIST, 'index.html')))
  throw new Error(`No site in ${relative(ROOT, DIST)}: run npm run docs:build first.`);
if (!existsSync(CHROMIUM))
  throw new Error(`No Chromium at ${CHROMIUM}: run npm run setup:test-machine, or set CHROMIUM_PATH.`);

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain',
};

/** The file a URL path names inside the build, or undefined (`/x` -> x.html, `/dir/` -> dir/index.html). */
function fileFor(pathname) {
  const decoded = decodeURIComponent(pathname);
  const candidates = decoded.endsWith('/') ? [`${decoded}index.html`] : [decoded, `${decoded}.html`];
  for (const candidate of candidates) {
    const file = resolve(DIST, `.${candidate}`);
    if (!file.startsWith(DIST + sep)) return undefined;
    if (existsSync(file) && statSync(file).isFile()) return file;
  }
  return undefined;
}

const server = createServer((request, response) => {
  const { pathname } = new URL(request.url ?? '/', 'http://127.0.0.1');
  const file = fileFor(pathname);
  response.writeHead(file ? 200 : 404, {
    'content-type': TYPES[extname(file ?? '.html')] ?? 'application/octet-stream',
  });
  response.end(readFileSync(file ?? join(DIST, '404.html')));
});
await new Promise((ready) => server.listen(0, '127.0.0.1', ready));
const origin = `http://127.0.0.1:${server.address().port}`;

/** Every page of the build, as URL paths (`/quickstart.html`); the 404 page is not a page. */
function builtPages(folder = DIST) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'assets' ? [] : builtPages(path);
    if (!entry.name.endsWith('.html') || path === join(DIST, '404.html')) return [];
    return [`/${relative(DIST, path).split(sep).join('/')}`];
  });
}

const { chromium } = require('playwright-core');
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const started = Date.now();
try {
  const context = await browser.newContext();
  const errors = [];
  /** A tab whose console errors, page errors and failed requests are reported against the page it is on. */
  async function tab() {
    const page = await context.newPage();
    const state = { current: '' };
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`${state.current}: console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => errors.push(`${state.current}: page error: ${error.message}`));
    page.on('response', (response) => {
      if (response.status() >= 400) errors.push(`${state.current}: ${response.status()} for ${response.url()}`);
    });
    // Nothing leaves 127.0.0.1: a request anywhere else is a problem (and is not made).
    await page.route(
      (url) => url.origin !== origin,
      (route) => {
        errors.push(`${state.current}: requested ${route.request().url()}, outside the site`);
        return route.abort();
      },
    );
    return { page, state };
  }

  const pages = builtPages().sort();
  const idsOf = new Map(); // page path -> Set of element ids
  const links = new Map(); // target path#hash -> first page that links it
  const checkedText = [];
  const queue = [...pages];
  const sidebar = [];
  // Two tabs load pages side by side (the site's JavaScript and each page's chunk are cached after the first).
  const workers = await Promise.all([tab(), tab()]);
  await Promise.all(
    workers.map(async ({ page, state }) => {
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
        state.current = path;
        const answer = await page.goto(`${origin}${path}`, { waitUntil: 'load' });
        if (answer?.status() !== 200) problem(`${path}: answered ${answer?.status()}`);
        const found = await page.evaluate(() => ({
          ids: [...document.querySelectorAll('[id]')].map((element) => element.id),
          hrefs: [...document.querySelectorAll('a[href]')].map((anchor) => anchor.href),
          text: document.querySelector('.vp-doc')?.innerText ?? document.querySelector('#app')?.innerText ?? '',
          title: document.title,
          sidebar: [...document.querySelectorAll('.VPSidebar a[href]')].map((anchor) => anchor.href),
        }));
        if (path === '/quickstart.html') sidebar.push(...found.sidebar.map((href) => new URL(href).pathname));
        if (!found.title) problem(`${path}: no title`);
        idsOf.set(path, new Set(found.ids));
        for (const href of found.hrefs) {
          if (!href.startsWith(`${origin}/`)) continue;
          const url = new URL(href);
          const key = `${url.pathname}${url.hash}`;
          if (!links.has(key)) links.set(key, path);
        }
        if (!RECORD_PAGES.test(path)) {
          checkedText.push(path);
          for (const { text } of internalReferences(found.text))
            problem(`${path}: names a seed, issue, ADR or decision number: ${text.trim().slice(0, 160)}`);
        }
      }
    }),
  );
  const { page, state } = workers[0];
  log(`${pages.length} pages loaded in Chromium (${Math.round((Date.now() - started) / 1000)} s)`);

  // Every internal link: its page exists (200 from the server, which is what a static host answers) and its anchor is
  // an id there. A page of the build is loaded above; a link to anything else (an asset, an image) is fetched.
  let anchors = 0;
  for (const [key, from] of links) {
    const [pathname, hash] = key.split('#');
    const file = fileFor(pathname);
    if (!file) {
      problem(`${from}: links to ${key}, which the site does not have`);
      continue;
    }
    if (!hash) continue;
    const target = `/${relative(DIST, file).split(sep).join('/')}`;
    const ids = idsOf.get(target);
    if (!ids) continue; // an asset with a fragment
    anchors++;
    if (ids.has(decodeURIComponent(hash))) continue;
    // typedoc-plugin-markdown links a merged declaration (a type and a value of one name) to `#name-1` although it writes
    // one heading, `#name`: the same place.
    const merged = /^(.+)-1$/.exec(hash)?.[1];
    if (target.startsWith('/api-reference/') && merged && ids.has(merged)) continue;
    problem(`${from}: links to ${key}, and ${target} has no #${hash}`);
  }
  // Every guide is in the sidebar (a page added to docs/ must be added to docs/.vitepress/config.mts to be found):
  // every page but the decision records, the API reference's own pages and the reference notes' sub-pages.
  const unlisted = pages.filter(
    (path) =>
      path !== '/index.html' &&
      !/^\/(decisions|api-reference)\//.test(path) &&
      !(path.startsWith('/reference/') && path !== '/reference/README.html') &&
      !sidebar.includes(path),
  );
  if (sidebar.length === 0) problem('/quickstart.html: no sidebar found');
  for (const path of unlisted) problem(`${path}: not in the sidebar (docs/.vitepress/config.mts)`);
  log(`${links.size} internal links followed (${anchors} to an anchor)`);

  // The site search: a query finds the page that documents it, and the result opens that page.
  state.current = '/ (search)';
  await page.goto(`${origin}/`, { waitUntil: 'load' });
  await page.locator('.VPNavBarSearch button').first().click();
  const input = page.locator('.VPLocalSearchBox input');
  await input.fill('ScriptedChatModel');
  const results = page.locator('.VPLocalSearchBox .results li');
  await results.first().waitFor({ timeout: 20_000 });
  const titles = await results.allInnerTexts();
  if (!titles.some((title) => /quickstart/i.test(title)))
    problem(`search: "ScriptedChatModel" did not find the quickstart (found: ${titles.slice(0, 5).join(' | ')})`);
  await input.press('Enter');
  await page.waitForURL((url) => url.pathname !== '/', { timeout: 20_000 });
  const opened = new URL(page.url()).pathname;
  if (!fileFor(opened)) problem(`search: the first result opened ${opened}, which the site does not have`);
  await page.locator('.VPNavBarSearch button').first().click();
  await page.locator('.VPLocalSearchBox input').fill('zzqqxxnothingmatchesthis');
  await page.locator('.VPLocalSearchBox .no-results').waitFor({ timeout: 20_000 });
  log(
    `search: "ScriptedChatModel" found ${titles.length} result(s) and opened ${opened}; a query matching nothing says so`,
  );

  problems.push(...errors);
  log(
    `${checkedText.length} pages checked for internal references (${pages.length - checkedText.length} excepted: the decision records and their measurement log)`,
  );
} finally {
  await browser.close();
  server.close();
}

if (problems.length > 0) {
  process.stderr.write(
    `check-site: ${problems.length} problem(s):\n${problems.map((text) => `  - ${text}`).join('\n')}\n`,
  );
  process.exit(1);
}
log(`the site passed (${Math.round((Date.now() - started) / 1000)} s)`);
