import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readmeExample } from '../../../../docs/snippets/readme';

describe("the README's example", () => {
  it('is the code in docs/snippets/readme.ts, line for line', () => {
    const readme = readFileSync(path.resolve(__dirname, '../../../../README.md'), 'utf8');
    const block = /```ts\n([\s\S]*?)```/.exec(readme)![1]!.trim().split('\n').map((line) => line.trim()).filter(Boolean);
    const snippet = readFileSync(path.resolve(__dirname, '../../../../docs/snippets/readme.ts'), 'utf8').split('\n').map((line) => line.trim());
    for (const line of block) expect({ line, inSnippet: snippet.includes(line) }).toEqual({ line, inSnippet: true });
  });

  it('does what its comment says; the default logger writes nothing to stdout and one stderr line for the forged field', async () => {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const stdoutWrite = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => stdout.push(String(chunk)) > 0);
    const stderrWrite = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => stderr.push(String(chunk)) > 0);
    let result: Awaited<ReturnType<typeof readmeExample>>;
    try {
      result = await readmeExample();
    } finally {
      stdoutWrite.mockRestore();
      stderrWrite.mockRestore();
    }
    expect(result).toMatchObject({ ok: true, value: { question: 'Ship?', options: 2 } });
    expect(result.transformations.map((transformation) => transformation.rule)).toEqual(['single-quotes', 'json-string-to-array', 'dropped-context-field']);
    expect(stdout).toEqual([]);
    expect(stderr).toHaveLength(1);
    expect(stderr[0]).toMatch(/^\[toolwright\] WARN security: the model tried to set trusted context field "session_id" of decision\/propose; the value was dropped \{.*\}\n$/);
  });
});
