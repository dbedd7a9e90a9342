import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPOSITORY_ROOT } from './doc-blocks';

/**
 * The doc comments users read (in their editor, and in an API reference generated from the declarations) say what a
 * declaration means, not where its decision was made: the built `.d.ts` files of every package name no seed, issue,
 * ADR or decision number. `npm test` builds first.
 */
const INTERNAL_REFERENCE = /seed [0-9]{3}|issue [0-9]+|ADR [0-9]{4}|decision [0-9]{4}|class [0-9]+:/i;

function declarationFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'tsc' ? [] : declarationFiles(file);
    return entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

describe('the packages’ built declarations', () => {
  const packages = readdirSync(path.join(REPOSITORY_ROOT, 'packages'));
  const files = packages.flatMap((name) => {
    const dist = path.join(REPOSITORY_ROOT, 'packages', name, 'dist');
    try {
      return declarationFiles(dist);
    } catch {
      throw new Error(`Not built: ${dist}. Run \`npm run build\` (npm test does) first.`);
    }
  });

  it('are found for every package', () => {
    expect(packages.length).toBeGreaterThanOrEqual(7);
    for (const name of packages)
      expect(files.some((file) => file.includes(`${path.sep}${name}${path.sep}dist${path.sep}`))).toBe(true);
  });

  it('name no seed, issue, ADR or decision number in their doc comments', () => {
    const found = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          INTERNAL_REFERENCE.test(line) ? [`${path.relative(REPOSITORY_ROOT, file)}:${index + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(found).toEqual([]);
  });
});
