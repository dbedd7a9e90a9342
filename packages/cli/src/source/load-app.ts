import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ToolRegistry } from '@toolwright/core';
import { CliError } from '../errors/cli-error';

/** The methods the CLI and the executor use; checked instead of `instanceof` so an app with its own copy of core works. */
const REGISTRY_METHODS = ['list', 'get', 'getEntry', 'has', 'toJsonSchema'] as const;

export function isToolRegistry(value: unknown): value is ToolRegistry {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return REGISTRY_METHODS.every((method) => typeof record[method] === 'function') && typeof record['size'] === 'number';
}

/**
 * Which file `--app <path>` means: a file as given; for a folder, the `toolwright.app` field of its package.json
 * (a module that only builds the registry, so loading it starts nothing), else the package's main entry.
 */
export function resolveAppModule(path: string, cwd: string = process.cwd()): string {
  const absolute = isAbsolute(path) ? path : resolve(cwd, path);
  if (!existsSync(absolute)) {
    throw new CliError(
      `--app ${path}: no such file or folder (looked at ${absolute}). Fix: pass the path of a module (or package folder) that exports \`registry\`.`,
    );
  }
  if (!statSync(absolute).isDirectory()) return absolute;
  const manifestPath = join(absolute, 'package.json');
  if (existsSync(manifestPath)) {
    let manifest: { toolwright?: { app?: unknown } };
    try {
      manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as typeof manifest;
    } catch (error) {
      throw new CliError(`--app ${path}: ${manifestPath} is not valid JSON (${(error as Error).message}).`, 2, {
        cause: error,
      });
    }
    const app = manifest.toolwright?.app;
    if (app !== undefined) {
      if (typeof app !== 'string')
        throw new CliError(
          `--app ${path}: the "toolwright.app" field of ${manifestPath} must be a path string, got ${JSON.stringify(app)}.`,
        );
      const target = resolve(absolute, app);
      if (!existsSync(target)) {
        throw new CliError(
          `--app ${path}: "toolwright.app" points at ${target}, which does not exist. Fix: build the app first (npm run build).`,
        );
      }
      return target;
    }
  }
  try {
    return createRequire(join(absolute, 'noop.js')).resolve(absolute);
  } catch (error) {
    throw new CliError(
      `--app ${path}: the folder has no entry module (no "toolwright.app" field, main or index.js). Fix: add "toolwright": { "app": "./dist/registry.js" } to its package.json, or pass the module's path.`,
      2,
      { cause: error },
    );
  }
}

/**
 * Loads `--app <path>` and returns its registry: the module's `registry` export, else its default export; either may
 * be a ToolRegistry or a function returning one (or a promise of one).
 */
export async function loadAppRegistry(
  path: string,
  cwd: string = process.cwd(),
): Promise<{ registry: ToolRegistry; module: string }> {
  const file = resolveAppModule(path, cwd);
  let exported: Record<string, unknown>;
  try {
    exported = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CliError(
      `--app ${path}: loading ${file} failed: ${reason}. Fix: build the app (a TypeScript app must be compiled to JavaScript first) and check it starts.`,
      2,
      { cause: error },
    );
  }
  // A CommonJS module imported from here puts module.exports on `default` too.
  const commonJs =
    typeof exported['default'] === 'object' && exported['default'] !== null
      ? (exported['default'] as Record<string, unknown>)
      : undefined;
  const candidates: Array<[string, unknown]> = [
    ['registry', exported['registry']],
    ['registry', commonJs?.['registry']],
    ['default', exported['default']],
    ['default', commonJs?.['default']],
  ];
  for (const [name, candidate] of candidates) {
    if (candidate === undefined) continue;
    const value =
      typeof candidate === 'function' && !isToolRegistry(candidate) ? await (candidate as () => unknown)() : candidate;
    if (isToolRegistry(value)) return { registry: value, module: file };
    if (name === 'registry') {
      throw new CliError(
        `--app ${path}: the \`registry\` export of ${file} is not a ToolRegistry (got ${describe(value)}). Fix: export the registry itself, e.g. \`export const registry = ToolRegistry.from([...])\`.`,
      );
    }
  }
  const names = Object.keys(exported).filter((name) => name !== 'default' && name !== '__esModule');
  const commonNames = commonJs ? Object.keys(commonJs).filter((name) => name !== '__esModule') : [];
  const found = [...new Set([...names, ...commonNames])];
  throw new CliError(
    `--app ${path}: ${file} exports no ToolRegistry (its exports: ${found.length > 0 ? found.join(', ') : 'none'}). ` +
      'Fix: export `registry` (a ToolRegistry, or a function returning one) or make the registry the default export.',
  );
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return `an object with keys ${Object.keys(value).slice(0, 6).join(', ') || '(none)'}`;
  return typeof value;
}
