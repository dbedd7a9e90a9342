import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * scripts/eslint-import-cycles.mjs in a real ESLint run over a package written here (in a temporary directory): a cycle
 * made only of type imports is reported at both ends with its route, and so is one through a re-export; the same
 * modules without the cycle pass.
 */
const RULE = pathToFileURL(resolve(__dirname, '..', 'eslint-import-cycles.mjs')).href;
const ESLINT = pathToFileURL(require.resolve('eslint')).href;
const PARSER = pathToFileURL(require.resolve('@typescript-eslint/parser')).href;
let folder: string;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'toolwright-cycles-'));
  mkdirSync(join(folder, 'packages', 'demo', 'src', 'inner'), { recursive: true });
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

function write(files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, 'packages', 'demo', 'src', name), text);
}

/** The rule's messages for every file of the package, `file: message`. */
function lint(): string[] {
  const script = `
    const { ESLint } = await import(${JSON.stringify(ESLINT)});
    const { importCycles } = await import(${JSON.stringify(RULE)});
    const parser = await import(${JSON.stringify(PARSER)});
    const eslint = new ESLint({
      cwd: ${JSON.stringify(folder)},
      overrideConfigFile: true,
      overrideConfig: [{
        files: ['**/*.ts'],
        languageOptions: { parser },
        plugins: { 'import-cycles': importCycles },
        rules: { 'import-cycles/no-import-cycle': 'error' },
      }],
    });
    const results = await eslint.lintFiles(['packages/demo/src/**/*.ts']);
    const lines = results.flatMap((result) =>
      result.messages.map((message) => result.filePath.slice(${JSON.stringify(folder)}.length + 1) + ': ' + message.message));
    console.log(JSON.stringify(lines.sort()));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as string[];
}

describe('the import-cycle rule (type-only imports count)', () => {
  it('reports a cycle of type-only imports at both ends, with the route', () => {
    write({
      'a.ts': "import type { B } from './inner/b';\nexport interface A { b?: B }\n",
      'inner/b.ts': "import { type A } from '../a';\nexport interface B { a?: A }\n",
    });
    expect(lint()).toEqual([
      'packages/demo/src/a.ts: Import cycle (type-only imports count): a.ts -> inner/b.ts -> a.ts. Move the shared piece to a module both can import.',
      'packages/demo/src/inner/b.ts: Import cycle (type-only imports count): inner/b.ts -> a.ts -> inner/b.ts. Move the shared piece to a module both can import.',
    ]);
  });

  it('follows re-exports, and passes once the shared type lives in a module both import', () => {
    write({
      'a.ts': "export type { C } from './c';\n",
      'c.ts': "import type { D } from './a-user';\nexport interface C { d?: D }\n",
      'a-user.ts': "import type { C } from './a';\nexport interface D { c?: C }\n",
    });
    expect(lint()).toHaveLength(3);
    write({ 'a-user.ts': "import type { C } from './c';\nexport interface D { c?: C }\n" });
    write({ 'c.ts': 'export interface C { d?: unknown }\n' });
    expect(lint()).toEqual([]);
  });
});
