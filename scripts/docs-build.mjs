#!/usr/bin/env node
// `npm run docs:build`: the documentation site (VitePress, docs/.vitepress/config.mts) built from docs/ in place.
//   1. TypeDoc writes the API reference as markdown into docs/api-reference/ (generated, ignored by git), read from the
//      packages' published declarations (dist/*.d.ts, so run `npm run build` first: `npm install` does): one module per
//      public entry point of each package's `exports` (`@toolwright/core/internal` is not public API and is left out);
//   2. VitePress builds the site into docs/.vitepress/dist/ (every internal link checked: a dead link fails the build).
// Usage: node scripts/docs-build.mjs [--api-only]
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publishablePackages } from './pack.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const API_OUT = join(ROOT, 'docs', 'api-reference');
const ENTRIES = join(ROOT, 'node_modules', '.cache', 'toolwright-typedoc');
const require = createRequire(join(ROOT, 'package.json'));
const log = (text) => process.stdout.write(`docs:build: ${text}\n`);

/** Subpaths of a package's `exports` that are not public API (documented as such in docs/api.md). */
const NOT_PUBLIC = new Set(['@toolwright/core/internal']);

/** Every public entry point (`@toolwright/providers/openai`, ...), read from each package's `exports`. */
export function publicEntryPoints() {
  const names = [];
  for (const directory of publishablePackages()) {
    const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'));
    for (const key of Object.keys(manifest.exports ?? { '.': null })) {
      if (key === './package.json') continue;
      const subpaths = key.includes('*')
        ? readdirSync(join(directory, 'dist'), { withFileTypes: true })
            .filter((entry) => entry.isDirectory() && existsSync(join(directory, 'dist', entry.name, 'index.d.ts')))
            .map((entry) => key.replace('*', entry.name))
        : [key];
      for (const subpath of subpaths) {
        const name = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.replace(/^\.\//, '')}`;
        if (!NOT_PUBLIC.has(name)) names.push(name);
      }
    }
  }
  return names.sort();
}

async function buildApiReference() {
  const names = publicEntryPoints();
  rmSync(ENTRIES, { recursive: true, force: true });
  mkdirSync(ENTRIES, { recursive: true });
  // One declaration file per entry point, named by its import specifier (TypeDoc's module name comes from @module),
  // re-exporting the package as a user imports it: the reference shows exactly what an import can reach.
  const files = names.map((name, index) => {
    const file = join(ENTRIES, `entry-${index}.d.ts`);
    writeFileSync(file, `/**\n * @module ${name}\n */\nexport * from '${name}';\n`);
    return file;
  });
  writeFileSync(
    join(ENTRIES, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2023',
          module: 'nodenext',
          strict: true,
          skipLibCheck: true,
          experimentalDecorators: true,
          emitDecoratorMetadata: true,
          types: ['node'],
          noEmit: true,
        },
        files: files.map((file) => relative(ENTRIES, file)),
      },
      null,
      2,
    ),
  );
  const { Application } = await import(require.resolve('typedoc'));
  const app = await Application.bootstrapWithPlugins({
    entryPoints: files,
    entryPointStrategy: 'resolve',
    tsconfig: join(ENTRIES, 'tsconfig.json'),
    plugin: [require.resolve('typedoc-plugin-markdown'), require.resolve('typedoc-vitepress-theme')],
    out: API_OUT,
    docsRoot: join(ROOT, 'docs'),
    readme: 'none',
    name: 'API reference',
    entryFileName: 'index',
    outputFileStrategy: 'modules',
    hidePageHeader: true,
    hideBreadcrumbs: true,
    excludePrivate: true,
    excludeInternal: true,
    excludeExternals: false,
    skipErrorChecking: true,
    disableSources: true,
    sanitizeComments: true,
    useCodeBlocks: true,
    logLevel: 'Warn',
    validation: { notExported: false, invalidLink: false, rewrittenLink: false },
    sidebar: { pretty: true, collapsed: true },
  });
  const project = await app.convert();
  if (!project) throw new Error('TypeDoc could not convert the declarations (see the messages above).');
  rmSync(API_OUT, { recursive: true, force: true });
  await app.generateOutputs(project);
  log(`API reference: ${names.length} entry points into ${relative(ROOT, API_OUT)}/`);
}

await buildApiReference();
if (!process.argv.includes('--api-only')) {
  const { build } = await import(require.resolve('vitepress'));
  await build(join(ROOT, 'docs'));
  log(`site in ${relative(ROOT, join(ROOT, 'docs', '.vitepress', 'dist'))}/`);
}
