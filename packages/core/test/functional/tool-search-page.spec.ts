import { spawnSync } from 'node:child_process';
import ts from 'typescript';
import { blocksOf, REPOSITORY_ROOT } from '../docs/doc-blocks';

/**
 * The first block of docs/tool-search.md, run as written in a fresh Node process against the built package, with no
 * `import 'reflect-metadata'` anywhere (tool search uses no decorator): it runs, and what it prints is what the page's
 * comment shows (the name, the score's leading digits and the matched words). `npm test` builds first.
 */
describe('docs/tool-search.md, the registry.search block', () => {
  const [block] = blocksOf('docs/tool-search.md');
  const comment = /^\/\/ \[\{ name: '([^']+)', score: ([0-9.]+)\.\.\., matched: \[([^\]]*)\] \}\]$/m.exec(block!.code);

  it('shows the result it gets, in a comment the test reads', () => {
    expect(block!.code).toContain("registry.search('weather in Boston', { limit: 5 })");
    expect(comment).not.toBeNull();
  });

  it('runs in a process that never loaded reflect-metadata itself, and prints what the page says', () => {
    const program = ts.transpileModule(
      `if (typeof (Reflect as any).getMetadata === 'function') throw new Error('reflect-metadata was loaded before the block');\n` +
        `${block!.code}\nprocess.stdout.write(JSON.stringify({ results, readOnly }));\n`,
      { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } },
    ).outputText;
    const run = spawnSync(process.execPath, ['-'], {
      cwd: REPOSITORY_ROOT,
      input: program,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const { results, readOnly } = JSON.parse(run.stdout) as {
      results: { name: string; score: number; matched: string[] }[];
      readOnly: unknown[];
    };
    const [, name, scorePrefix, matched] = comment!;
    expect(results).toHaveLength(1);
    expect(results[0]!.name).toBe(name);
    expect(String(results[0]!.score).startsWith(scorePrefix!)).toBe(true);
    expect(results[0]!.matched).toEqual(matched!.split(',').map((word) => word.trim().replace(/'/g, '')));
    expect(readOnly).toEqual([]);
  });
});
