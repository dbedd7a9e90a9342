import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from 'jest';

/**
 * One jest project per workspace package (every folder under packages/ that has a test/ folder).
 * Tests run against the packages' TypeScript sources (mapped below), so one copy of each package is
 * loaded and no build is needed to run them; `npm test` type-checks the tests separately
 * (`tsc -p tsconfig.test.json`), so ts-jest only transpiles.
 */
const packages = readdirSync(join(process.cwd(), 'packages')).filter((name) =>
  existsSync(join(process.cwd(), 'packages', name, 'test')),
);

/**
 * Packages published as ES modules only (no `require` export). Jest on Node 22 cannot `require` an ES module, so these
 * files, and only these, are compiled to CommonJS by a small TypeScript transpile (scripts/jest-esm-to-commonjs.cjs).
 * Node itself loads them natively (`require(esm)`), so the built packages need nothing of this.
 */
const ESM_ONLY_PACKAGES = ['ai', '@ai-sdk/[^/]+', '@workflow/serde', 'jose'];
const ESM_ONLY_FILES = `/node_modules/(?:${ESM_ONLY_PACKAGES.join('|')})/.+\\.js$`;

const moduleNameMapper: Record<string, string> = {
  // The packages (not the examples, which tests run as users do, from their build output).
  '^@toolwright/((?!example-)[a-z-]+)/(.+)$': '<rootDir>/../$1/src/$2',
  '^@toolwright/((?!example-)[a-z-]+)$': '<rootDir>/../$1/src',
  // The AI SDK imports zod's locale by file (`zod/v4/locales/en.js`, the ES module); zod ships a CommonJS twin beside it.
  '^zod/v4/locales/([a-z-]+)\\.js$': '<rootDir>/../../node_modules/zod/v4/locales/$1.cjs',
};

const config: Config = {
  // A skipped or todo test fails the run (scripts/jest-no-skipped-tests.cjs).
  reporters: ['default', '<rootDir>/scripts/jest-no-skipped-tests.cjs'],
  // On a machine with two cores jest runs every suite in its own process (no workers to end), so one timer a suite
  // leaves behind (4 pending timeouts after a full run on 2 cores) would keep the run from ever exiting.
  forceExit: true,
  projects: [
    ...packages.map((name) => ({
      displayName: name,
      rootDir: `<rootDir>/packages/${name}`,
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/**/*.spec.ts'],
      moduleNameMapper,
      transform: {
        '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/../../tsconfig.jest.json' }],
        [ESM_ONLY_FILES]: '<rootDir>/../../scripts/jest-esm-to-commonjs.cjs',
      },
      transformIgnorePatterns: [`/node_modules/(?!(?:${ESM_ONLY_PACKAGES.join('|')})/)`],
    })),
    // The repository's own tooling: the setup script, the pack script, the CLI's bin shim, the README's commands.
    {
      displayName: 'repository',
      rootDir: '<rootDir>/scripts',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/**/*.spec.ts'],
      transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/../tsconfig.jest.json' }] },
    },
  ],
};

export default config;
