/**
 * The package's layout, checked on its sources: no import cycle; `shared/` never imports a provider or the root;
 * `text/` (the text tool-call parser) imports only `shared/` and itself; each provider module imports only `shared/`,
 * `text/` and itself, keeps one file per concern, and its `index.ts` only
 * re-exports; the root table lists every provider object.
 */
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { getProviders, PROVIDERS } from '@toolwright/providers';
import { importCycles, moduleGraph } from '../support/module-graph';

const SOURCE = join(__dirname, '..', '..', 'src');
const graph = moduleGraph(SOURCE);
const PROVIDER_FOLDERS = [
  'anthropic',
  'bedrock',
  'cohere',
  'gemini',
  'hermes',
  'mcp',
  'mistral',
  'ollama',
  'openai',
  'openai-responses',
];

describe('module layout of @toolwright/providers', () => {
  it('has no import cycle', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it('finds a cycle when there is one (the check can fail)', () => {
    const cyclic = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['a.ts']],
      ['c.ts', ['a.ts']],
    ]);
    expect(importCycles(cyclic)).toEqual([['a.ts', 'b.ts']]);
  });

  it('shared/ imports only shared/', () => {
    const upward = [...graph].flatMap(([file, imports]) =>
      file.startsWith('shared/')
        ? imports.filter((target) => !target.startsWith('shared/')).map((target) => `${file} -> ${target}`)
        : [],
    );
    expect(upward).toEqual([]);
  });

  it('text/ imports only shared/ and text/', () => {
    const upward = [...graph].flatMap(([file, imports]) =>
      file.startsWith('text/')
        ? imports
            .filter((target) => !target.startsWith('shared/') && !target.startsWith('text/'))
            .map((target) => `${file} -> ${target}`)
        : [],
    );
    expect(upward).toEqual([]);
  });

  it.each(PROVIDER_FOLDERS)('%s imports only shared/, text/ and itself, and never its own index', (folder) => {
    const outside = [...graph].flatMap(([file, imports]) =>
      file.startsWith(`${folder}/`)
        ? imports
            .filter(
              (target) =>
                !target.startsWith('shared/') &&
                !target.startsWith('text/') &&
                !(target.startsWith(`${folder}/`) && target !== `${folder}/index.ts`),
            )
            .map((target) => `${file} -> ${target}`)
        : [],
    );
    expect(outside).toEqual([]);
  });

  it.each(PROVIDER_FOLDERS)('%s has one file per concern and an index that only re-exports', (folder) => {
    for (const concern of ['tools', 'calls', 'results', 'provider'])
      expect(graph.has(`${folder}/${concern}.ts`)).toBe(true);
    const index = ts.createSourceFile(
      'index.ts',
      readFileSync(join(SOURCE, folder, 'index.ts'), 'utf8'),
      ts.ScriptTarget.Latest,
    );
    const declarations = index.statements.filter(
      (statement) => !(ts.isExportDeclaration(statement) && statement.moduleSpecifier !== undefined),
    );
    expect(declarations.map((statement) => statement.getText(index))).toEqual([]);
  });

  it('the root table holds every provider object, in the order getProviders lists them', () => {
    expect(Object.keys(PROVIDERS).sort()).toEqual([...PROVIDER_FOLDERS].sort());
    expect(getProviders()).toEqual(Object.values(PROVIDERS));
  });
});
