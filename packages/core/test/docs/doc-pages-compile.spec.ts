import { blocksOf, compileBlocks, documentationPages } from './doc-blocks';

/**
 * Every ```ts block of the README and docs/ pages, read from the page itself (not from a copy) and type-checked as a
 * module with the test configuration: a renamed option, a moved export or a wrong signature in a page fails here.
 */
describe('the ```ts blocks of the documentation pages', () => {
  const blocks = documentationPages().flatMap(blocksOf);

  it('are found in the pages (the extraction itself works)', () => {
    expect(blocks.map((block) => block.page)).toEqual(
      expect.arrayContaining(['README.md', 'docs/tool-loop.md', 'docs/queue.md', 'docs/providers/README.md']),
    );
  });

  it('all compile against the current sources', () => {
    const diagnostics = [...compileBlocks(blocks).values()].flat();
    expect(diagnostics).toEqual([]);
  });

  it('a block with a mistake is reported with its page and line (the check can fail)', () => {
    const [first] = blocks;
    const broken = {
      ...first!,
      code: "import { NoSuchExport } from '@toolwright/core';\n",
      fileName: `${first!.fileName}.broken.ts`,
    };
    const [reported] = [...compileBlocks([broken]).values()];
    expect(reported).toEqual([
      expect.stringMatching(new RegExp(`^${first!.page.replace('.', '\\.')}:${first!.line + 1}: .*NoSuchExport`)),
    ]);
  });
});
