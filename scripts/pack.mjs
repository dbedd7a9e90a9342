#!/usr/bin/env node
// `npm run pack`: every publishable package under packages/* as the tarball npm would publish, all in one folder
// (default dist/tarballs/), so a project can install toolwright before (or without) a release:
//   npm install <folder>/toolwright-core-0.1.0.tgz <folder>/toolwright-providers-0.1.0.tgz ...
// (the packages depend on each other at the exact version, which the sibling tarballs in the same command satisfy).
// Usage: node scripts/pack.mjs [--out <folder>]   (run after `npm run build`: the tarballs hold dist/)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_OUT = join(ROOT, 'dist', 'tarballs');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** The folders of every package under packages/ that is not private, in name order. */
export function publishablePackages() {
  const directories = readdirSync(join(ROOT, 'packages'))
    .sort()
    .map((name) => join(ROOT, 'packages', name))
    .filter((directory) => existsSync(join(directory, 'package.json')))
    .filter((directory) => readJson(join(directory, 'package.json')).private !== true);
  if (directories.length === 0) throw new Error('No publishable package under packages/.');
  return directories;
}

/**
 * `npm pack` of every publishable package into `out` (emptied of older tarballs first, so the folder holds one version
 * of each). Returns, per package, its folder, manifest, tarball path and npm's file list.
 */
export function packAll(out = DEFAULT_OUT) {
  mkdirSync(out, { recursive: true });
  for (const file of readdirSync(out)) if (file.endsWith('.tgz')) rmSync(join(out, file));
  return publishablePackages().map((directory) => {
    const manifest = readJson(join(directory, 'package.json'));
    const dist = join(directory, 'dist');
    if (!existsSync(dist))
      throw new Error(`${manifest.name} is not built (${dist} is missing): run npm run build first.`);
    const [info] = JSON.parse(
      execFileSync(npm, ['pack', '--json', '--pack-destination', out], {
        cwd: directory,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        maxBuffer: 64 * 1024 * 1024,
      }),
    );
    return { directory, manifest, tarball: join(out, info.filename), info };
  });
}

/**
 * The toolwright packages a package needs installed beside it, itself included, in install order: its `dependencies`
 * and required `peerDependencies` on other packages of the set, followed through (`@toolwright/cli` needs core,
 * providers and mcp). They depend on each other at the exact version, which only sibling tarballs satisfy before a
 * release, so one `npm install` must name them all. `manifests` is every publishable package.json. No cycle: ESLint's
 * import boundaries forbid one.
 */
export function installSet(name, manifests) {
  const byName = new Map(manifests.map((manifest) => [manifest.name, manifest]));
  const ordered = [];
  // Depth first, each package after the packages it needs: `core, providers, mcp, cli`.
  const visit = (current) => {
    if (ordered.includes(current)) return;
    const manifest = byName.get(current);
    if (!manifest) throw new Error(`${current} is not a package of this repository.`);
    const required = [
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}).filter(
        (peer) => manifest.peerDependenciesMeta?.[peer]?.optional !== true,
      ),
    ];
    for (const dependency of required) if (byName.has(dependency)) visit(dependency);
    ordered.push(current);
  };
  visit(name);
  return ordered;
}

/** A tarball's file name as `npm pack` writes it: `@toolwright/core` 0.1.0 -> `toolwright-core-0.1.0.tgz`. */
export const tarballName = (manifest) => `${manifest.name.replace(/^@/, '').replace('/', '-')}-${manifest.version}.tgz`;

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const at = process.argv.indexOf('--out');
  if (at !== -1 && !process.argv[at + 1]) throw new Error('--out needs a folder');
  const out = at === -1 ? DEFAULT_OUT : resolve(process.argv[at + 1]);
  const packed = packAll(out);
  for (const { manifest, info } of packed)
    process.stdout.write(
      `pack: ${manifest.name}@${manifest.version}: ${info.filename} (${(info.size / 1024).toFixed(0)} kB)\n`,
    );
  const manifests = packed.map(({ manifest }) => manifest);
  process.stdout.write(
    `pack: ${packed.length} tarballs in ${out}. From your project, install the package you start from with the ` +
      `toolwright packages it needs, in one command (docs/installing.md):\n`,
  );
  for (const { manifest } of packed) {
    const set = installSet(manifest.name, manifests).map((name) =>
      join(out, tarballName(manifests.find((candidate) => candidate.name === name))),
    );
    process.stdout.write(`  ${manifest.name}:\n    npm install ${set.join(' ')}\n`);
  }
}
