import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * User-facing text never names the project's internal references: no seed, issue, ADR or decision number and no
 * "class N:" label in any string or template literal of any package's source (error and warning messages, logs,
 * descriptions the model reads). Comments may name them; literals may not.
 */
const ROOT = join(__dirname, '..', '..', '..', '..');
const INTERNAL_REFERENCE = /\bseed [0-9]{3}|\bissue [0-9]+|\bADR [0-9]{4}|\bdecision [0-9]{4}|\bclass [0-9]+:/i;

function sourceFiles(folder: string, found: string[] = []): string[] {
  for (const entry of readdirSync(folder)) {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) sourceFiles(path, found);
    else if (/\.tsx?$/.test(path) && !path.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

/** Every string and template literal's text in a source file, with its line. */
function literals(file: string): Array<{ line: number; text: string }> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: Array<{ line: number; text: string }> = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    )
      found.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: node.text });
    node.forEachChild(visit);
  };
  visit(source);
  return found;
}

const packages = readdirSync(join(ROOT, 'packages')).filter((name) => {
  try {
    return statSync(join(ROOT, 'packages', name, 'src')).isDirectory();
  } catch {
    return false;
  }
});

describe('user-facing text', () => {
  it('finds the literals it scans, and would find a reference in one', () => {
    expect(packages).toEqual(expect.arrayContaining(['core', 'providers', 'mcp', 'cli']));
    const messages = literals(join(ROOT, 'packages', 'core', 'src', 'pipeline', 'messages.ts'));
    expect(messages.length).toBeGreaterThan(50);
    for (const text of ['(seed 003)', 'see issue 27', 'ADR 0015', 'decision 0024', 'class 3: keys'])
      expect(INTERNAL_REFERENCE.test(text)).toBe(true);
  });

  it.each(packages)('of @toolwright/%s names no seed, issue, ADR or decision number', (name) => {
    const found: string[] = [];
    for (const file of sourceFiles(join(ROOT, 'packages', name, 'src'))) {
      for (const { line, text } of literals(file))
        if (INTERNAL_REFERENCE.test(text)) found.push(`${relative(ROOT, file)}:${line}: ${text.slice(0, 120)}`);
    }
    expect(found).toEqual([]);
  });
});
