import type { Config } from 'jest';

/**
 * One jest project per workspace package. Tests run against the packages' TypeScript sources
 * (mapped below), so one copy of each package is loaded and no build is needed to run them;
 * `npm test` type-checks the tests separately (`tsc -p tsconfig.test.json`), so ts-jest only transpiles.
 */
const packages = ['core', 'providers', 'mcp'];

const moduleNameMapper: Record<string, string> = {
  '^@toolwright/providers/(.+)$': '<rootDir>/../providers/src/$1',
  '^@toolwright/(core|providers|mcp)$': '<rootDir>/../$1/src',
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
