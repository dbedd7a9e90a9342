import 'reflect-metadata';
// Loaded here, before the tests, so the block's own import of it inside the timed test is already in the cache.
import '@toolwright/core';
import type { ToolResult } from '@toolwright/core';
import { blocksOf, compileBlocks, runBlock } from '../docs/doc-blocks';

describe("the README's example", () => {
  // The code is read from README.md itself (its first ```ts block), compiled and run as the page shows it.
  const [block] = blocksOf('README.md');
  const readmeExample = async (): Promise<ToolResult> => (await runBlock(block!))['result'] as ToolResult;

  it('is in README.md and compiles as written', () => {
    expect(block?.code).toContain("name: 'decision/propose'");
    expect([...compileBlocks([block!]).values()].flat()).toEqual([]);
  });

  it('does what its comment says; the default logger writes nothing to stdout and one stderr line for the forged field', async () => {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const stdoutWrite = jest
      .spyOn(process.stdout, 'write')
      .mockImplementation((chunk: string | Uint8Array) => stdout.push(String(chunk)) > 0);
    const stderrWrite = jest
      .spyOn(process.stderr, 'write')
      .mockImplementation((chunk: string | Uint8Array) => stderr.push(String(chunk)) > 0);
    let result: Awaited<ReturnType<typeof readmeExample>>;
    try {
      result = await readmeExample();
    } finally {
      stdoutWrite.mockRestore();
      stderrWrite.mockRestore();
    }
    expect(result).toMatchObject({ ok: true, value: { question: 'Ship?', options: 2 } });
    expect(result.transformations.map((transformation) => transformation.rule)).toEqual([
      'single-quotes',
      'json-string-to-array',
      'dropped-context-field',
    ]);
    expect(stdout).toEqual([]);
    expect(stderr).toHaveLength(1);
    expect(stderr[0]).toMatch(
      /^\[toolwright\] WARN security: the model tried to set trusted context field "session_id" of decision\/propose; the value was dropped \{.*\}\n$/,
    );
  });
});
