#!/usr/bin/env node
// Adds the platform-specific optional packages (other OSes and CPUs) that npm leaves out of package-lock.json when it
// writes the lock on one platform, and without which `npm ci` refuses the lock ("Missing: X from lock file").
// Known npm bug: npm/cli#4828, npm/cli#8320. Run after changing dependencies: `node scripts/complete-lockfile.mjs`.
// Each entry is read from the registry (`npm view`): version, integrity, os, cpu, libc, engines, license. Where the
// registry this machine reaches does not carry that version (a partial mirror), the entry records the pinned version
// and the platform its name states (`@nx/nx-darwin-arm64` -> os darwin, cpu arm64): npm skips such a package on every
// other platform before fetching it, which is all `npm ci` needs here.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const OPERATING_SYSTEMS = [
  'android',
  'darwin',
  'freebsd',
  'linux',
  'openharmony',
  'win32',
  'openbsd',
  'netbsd',
  'sunos',
  'aix',
];
const CPUS = ['arm64', 'arm', 'x64', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x', 'wasm32'];

const lockPath = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages;
let added = 0;

for (const [location, entry] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = location === '' ? '' : `${location}/`;
    if (packages[`${base}node_modules/${name}`] || packages[`node_modules/${name}`]) continue;
    const info = registryInfo(name, range) ?? platformFromName(name, range);
    if (!info)
      throw new Error(`${name}@${range}: not in the registry, and its name states no platform; add its entry by hand.`);
    packages[`node_modules/${name}`] = Object.fromEntries(
      Object.entries({
        version: info.version,
        integrity: info['dist.integrity'],
        cpu: info.cpu,
        dev: entry.dev ? true : undefined,
        libc: info.libc,
        license: info.license,
        optional: true,
        os: info.os,
        engines: info.engines,
      }).filter(([, value]) => value !== undefined),
    );
    added++;
    console.log(`added ${name}@${info.version}`);
  }
}
function registryInfo(name, range) {
  try {
    const output = execFileSync(
      'npm',
      ['view', `${name}@${range}`, 'version', 'dist.integrity', 'os', 'cpu', 'libc', 'engines', 'license', '--json'],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const view = JSON.parse(output);
    return Array.isArray(view) ? view[view.length - 1] : view;
  } catch {
    return undefined;
  }
}

/** `<prefix>-<os>-<cpu>[-<abi>]`, the naming every platform-binary package here follows. */
function platformFromName(name, range) {
  if (!/^\d+\.\d+\.\d+$/.test(range)) return undefined;
  const parts = name.split('/').pop().split('-');
  const osIndex = parts.findIndex((part) => OPERATING_SYSTEMS.includes(part));
  const cpu = parts.slice(osIndex + 1).find((part) => CPUS.includes(part));
  if (osIndex === -1 || !cpu) return undefined;
  const abi = parts.slice(parts.indexOf(cpu) + 1).join('-');
  const libc =
    parts[osIndex] !== 'linux'
      ? undefined
      : abi.startsWith('musl')
        ? ['musl']
        : abi.startsWith('gnu')
          ? ['glibc']
          : undefined;
  return { version: range, os: [parts[osIndex]], cpu: [cpu], libc };
}

writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`${added} optional platform packages added to package-lock.json`);
