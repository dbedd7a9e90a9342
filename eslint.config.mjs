// ESLint for the whole monorepo: `npm run lint`.
// typescript-eslint (recommended + the cheap type-aware rules) for every TypeScript file, and the import boundaries
// of docs/decisions/0015-eslint-import-boundaries.md: inside each package no import cycle (type-only imports included:
// scripts/eslint-import-cycles.mjs) and no import that runs up the package's layer order.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importCycles } from './scripts/eslint-import-cycles.mjs';

const root = import.meta.dirname;

/**
 * Core's layers, lowest first: a folder may import only from its own layer or a lower one. The order is the data
 * flow (docs/pipeline.md): what a definition is made of, how decorators record it, how the IR is built, validated,
 * normalized, registered, executed and looped over. `builtins` is a command library written with the framework, so it
 * sits on top: nothing in the framework imports it. `src/index.ts` (the public entry points) is above everything.
 */
const CORE_LAYERS = [
  ['types', 'metadata', 'errors', 'time', 'logging', 'text'],
  ['decorators'],
  ['schema', 'rules'],
  ['validation'],
  ['pipeline', 'compile', 'search', 'result-check', 'result-view'],
  ['registry'],
  ['execution'],
  ['loop', 'standard-schema'],
  ['builtins'],
];

/** @toolwright/mcp's layers, lowest first; `client` and `server` are independent of each other. */
const MCP_LAYERS = [
  ['errors', 'messages.ts', 'content.ts', 'tool-names.ts'],
  ['client', 'server'],
];
const MCP_INDEPENDENT = [['client', 'server']];

/**
 * Each provider folder of @toolwright/providers, lowest first (one file per concern); `shared/` is below every
 * provider and a provider never imports another one.
 */
const PROVIDER_FILE_LAYERS = [['tools.ts', 'calls.ts', 'results.ts', 'lint.ts'], ['chat-model.ts'], ['index.ts']];

/** A package's entry points (`@toolwright/core`, `@toolwright/core/internal`): above every layer, imported by none. */
const ENTRY_POINTS = ['index.ts', 'internal.ts'];

const relative = (...parts) => `./${parts.join('/')}`;
const entriesOf = (directory) => readdirSync(join(root, directory), { withFileTypes: true }).map((entry) => entry.name);

/**
 * Zones for import-x/no-restricted-paths from a layer table: every layer's files may not import any higher layer's.
 * Every entry of `src/` must be placed in a layer (or be an entry point): a new folder fails here until it is placed.
 */
function layerZones(packageName, layers, independentGroups = []) {
  const source = `packages/${packageName}/src`;
  const placed = new Set(layers.flat());
  const unplaced = entriesOf(source).filter((name) => !ENTRY_POINTS.includes(name) && !placed.has(name));
  if (unplaced.length > 0) {
    throw new Error(
      `eslint.config.mjs: ${source}/${unplaced.join(', ')} has no layer; add it to the layer table of ` +
        `@toolwright/${packageName} (lowest layer first) so the import-boundary rule can check it.`,
    );
  }
  const present = (names) => names.filter((name) => existsSync(join(root, source, name)));
  const zones = [];
  layers.forEach((layer, index) => {
    const higher = present(layers.slice(index + 1).flat());
    const targets = present(layer);
    if (targets.length === 0 || higher.length === 0) return;
    zones.push({
      target: targets.map((name) => relative(source, name)),
      from: higher.map((name) => relative(source, name)),
      message: `Upward import: ${packageName}/{${targets.join(',')}} (layer ${index}) may import only its own or lower layers (${layers
        .slice(0, index + 1)
        .map((names) => names.join('|'))
        .join(' < ')}); move the shared piece down instead.`,
    });
  });
  for (const group of independentGroups) {
    for (const name of present(group)) {
      const others = present(group.filter((other) => other !== name));
      if (others.length === 0) continue;
      zones.push({
        target: relative(source, name),
        from: others.map((other) => relative(source, other)),
        message: `${packageName}/${name} and ${others.join(', ')} are independent; move what both need to a lower layer.`,
      });
    }
  }
  return zones;
}

/** Nothing inside a package imports its own entry points (they are the top layer, and a cycle in waiting). */
function rootEntryZones() {
  return entriesOf('packages').flatMap((name) =>
    ENTRY_POINTS.filter((entry) => existsSync(join(root, 'packages', name, 'src', entry))).map((entry) => ({
      target: relative('packages', name, 'src'),
      from: relative('packages', name, 'src', entry),
      message: `Import the module itself, not @toolwright/${name}'s entry point ${entry}, from inside the package.`,
    })),
  );
}

function providerZones() {
  const source = 'packages/providers/src';
  const providers = entriesOf(source).filter(
    (name) => name !== 'shared' && name !== 'text' && name !== 'index.ts' && existsSync(join(root, source, name)),
  );
  const zones = [
    {
      target: relative(source, 'shared'),
      from: [...providers, 'text'].map((name) => relative(source, name)),
      message: 'providers/shared is below every provider: move the provider-specific piece into its provider folder.',
    },
    {
      // The text tool-call parser sits between shared/ and the providers (their chat models fall back to it).
      target: relative(source, 'text'),
      from: providers.map((name) => relative(source, name)),
      message: 'providers/text is below every provider: it reads text for all of them and imports only shared/.',
    },
  ];
  for (const provider of providers) {
    const others = providers.filter((other) => other !== provider);
    zones.push({
      target: relative(source, provider),
      from: others.map((other) => relative(source, other)),
      message: `A provider never imports another provider: move what ${provider} needs from it to providers/shared.`,
    });
    PROVIDER_FILE_LAYERS.forEach((layer, index) => {
      const targets = layer.map((file) => relative(source, provider, file));
      const higher = PROVIDER_FILE_LAYERS.slice(index + 1)
        .flat()
        .map((file) => relative(source, provider, file));
      if (higher.length === 0) return;
      zones.push({
        target: targets,
        from: higher,
        message: `Upward import inside providers/${provider}: ${PROVIDER_FILE_LAYERS.map((names) =>
          names.join('|'),
        ).join(' < ')} (index.ts only re-exports).`,
      });
    });
  }
  return zones;
}

const boundaryZones = [
  ...layerZones('core', CORE_LAYERS),
  ...layerZones('mcp', MCP_LAYERS, MCP_INDEPENDENT),
  ...providerZones(),
  ...rootEntryZones(),
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/coverage/**',
      'bench/results/**',
      '**/test/fixtures/**',
      '.ci/**',
      'docs/images/**',
    ],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  eslint.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeCheckedOnly],
    languageOptions: {
      parserOptions: {
        project: [
          './tsconfig.test.json',
          './examples/*/tsconfig.json',
          './bench/tsconfig.json',
          './packages/cli/web/tsconfig.json',
        ],
        tsconfigRootDir: root,
      },
    },
    plugins: { 'import-x': importX, 'import-cycles': importCycles },
    settings: {
      // Which files import-x parses to follow imports (no-cycle walks the graph through them).
      'import-x/extensions': ['.ts', '.js', '.mjs', '.cjs'],
      'import-x/external-module-folders': ['node_modules', 'node_modules/@types'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: join(root, 'tsconfig.test.json'), alwaysTryTypes: true }),
      ],
    },
    rules: {
      // Import boundaries (ADR 0015).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // import-x/no-cycle skips type-only imports and has no option to count them: this one counts them (packages' src).
      'import-cycles/no-import-cycle': 'error',
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaryZones }],
      'import-x/no-self-import': 'error',
      'import-x/no-duplicates': 'error',
      // The codebase's habits, made rules.
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // The type-aware rules that pay for themselves here: the any-flow rules (no-unsafe-*) are off because the
      // normalizer's whole job is handling `unknown` model input, where they mostly flag deliberate narrowing.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // An `async` handler or interface method without `await` is the normal way to implement a Promise-returning API.
      '@typescript-eslint/require-await': 'off',
      // These CommonJS packages load optional or heavy modules lazily (`require('@toolwright/mcp')` only in the
      // commands that need it), which is what `require()` is for.
      '@typescript-eslint/no-require-imports': 'off',
      // Decorator targets are `Function` in TypeScript's own decorator signatures (ClassDecorator, PropertyDecorator).
      '@typescript-eslint/no-unsafe-function-type': 'off',
    },
  },
  {
    // The JSON-like scanners compare `charCodeAt` numbers with a const enum of character codes, on purpose (speed).
    files: ['packages/core/src/pipeline/read-json-like.ts', 'packages/core/src/pipeline/scan-json-text.ts'],
    rules: { '@typescript-eslint/no-unsafe-enum-comparison': 'off' },
  },
  {
    // Tests: jest's `expect(mock.fn).toHaveBeenCalled()` style and deliberate bad input.
    files: ['packages/*/test/**/*.ts'],
    rules: {
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      // Hostile-input tests write what the rules forbid on purpose: imprecise integer literals, joined characters in a
      // class, ANSI escapes, invalid patterns, code strings.
      'no-loss-of-precision': 'off',
      'no-misleading-character-class': 'off',
      'no-control-regex': 'off',
      'no-invalid-regexp': 'off',
      '@typescript-eslint/no-implied-eval': 'off',
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        __filename: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
);
