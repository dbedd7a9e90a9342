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

  it('does what its comment says', async () => {
    const log = jest.spyOn(console, 'info').mockImplementation(() => undefined);
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const result = await readmeExample();
      expect(result).toMatchObject({ ok: true, value: { question: 'Ship?', options: 2 } });
      expect(result.transformations.map((transformation) => transformation.rule)).toEqual(['single-quotes', 'json-string-to-array', 'dropped-context-field']);
    } finally {
      log.mockRestore();
      warn.mockRestore();
    }
  });
});
