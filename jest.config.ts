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

const moduleNameMapper: Record<string, string> = {
  '^@toolwright/([a-z-]+)/(.+)$': '<rootDir>/../$1/src/$2',
  '^@toolwright/([a-z-]+)$': '<rootDir>/../$1/src',
};

const config: Config = {
  projects: packages.map((name) => ({
    displayName: name,
    rootDir: `<rootDir>/packages/${name}`,
    testEnvironment: 'node',
    testMatch: ['<rootDir>/test/**/*.spec.ts'],
    moduleNameMapper,
    transform: {
      '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/../../tsconfig.jest.json' }],
    },
  })),
};

export default config;
