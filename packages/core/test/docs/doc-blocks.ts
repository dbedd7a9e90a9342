import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const REPOSITORY_ROOT = path.resolve(__dirname, '../../../..');

/** One ```ts block of a documentation page, with where it is. */
export interface DocBlock {
  /** The page, relative to the repository root (`docs/tool-loop.md`). */
  readonly page: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly code: string;
  /** A virtual file beside the page (`docs/tool-loop.md.block-2.ts`), so imports resolve as from the page's folder. */
  readonly fileName: string;
}

const WHOLE_FILE_PAGES: ReadonlySet<string> = new Set(['docs/nestjs.md', 'docs/interop.md']);

/**
 * The pages whose ```ts blocks are compiled: the README and every page under docs/, except docs/reference (provider
 * wire formats and the threat list, quoted from the providers' own documentation, not toolwright code) and
 * docs/nestjs.md and docs/interop.md, whose blocks are whole files of examples/ and docs/snippets/ (relative imports
 * included) or excerpts of them: packages/nestjs/test/functional/docs-snippets.spec.ts and
 * packages/interop/test/functional/docs-snippets.spec.ts check each block is such a file, and the build and the
 * typecheck compile those files where they are.
 */
export function documentationPages(): string[] {
  const pages = ['README.md'];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(path.join(REPOSITORY_ROOT, folder), { withFileTypes: true })) {
      const relative = path.posix.join(folder, entry.name);
      if (entry.isDirectory() && relative !== 'docs/reference' && relative !== 'docs/images') walk(relative);
      else if (entry.isFile() && entry.name.endsWith('.md') && !WHOLE_FILE_PAGES.has(relative)) pages.push(relative);
    }
  };
  walk('docs');
  return pages.sort();
}

/**
 * Every complete ```ts block of a page, read from the page itself: a block that imports what it uses. A block without
 * an import and without a context comment is an excerpt of the example above it and is not compiled on its own. What a
 * block takes from the page's story (`registry`, the app's client) is declared in an HTML comment on the line before
 * the fence, invisible on the rendered page: `<!-- ts-context: declare const registry: ToolRegistry; -->`.
 */
export function blocksOf(page: string): DocBlock[] {
  const text = readFileSync(path.join(REPOSITORY_ROOT, page), 'utf8');
  const blocks: DocBlock[] = [];
  const fence = /^```ts\n([\s\S]*?)^```$/gm;
  for (let match = fence.exec(text); match; match = fence.exec(text)) {
    const line = text.slice(0, match.index).split('\n').length;
    const context = /<!-- ts-context: (.*) -->\n$/.exec(text.slice(0, match.index))?.[1];
    if (context === undefined && !/^import /m.test(match[1]!)) continue;
    blocks.push({
      page,
      line,
      code: `${match[1]!}${context ?? ''}\n`,
      fileName: path.join(REPOSITORY_ROOT, `${page}.block-${blocks.length + 1}.ts`),
    });
  }
  return blocks;
}

/**
 * Type-checks blocks as modules with the test configuration (tsconfig.test.json: strict, decorators, the
 * `@toolwright/*` paths to the sources), through an in-memory host: nothing is written to disk.
 * Returns each block's diagnostics as "page:line: message" strings (the line inside the page).
 */
export function compileBlocks(blocks: readonly DocBlock[]): Map<DocBlock, string[]> {
  const configPath = path.join(REPOSITORY_ROOT, 'tsconfig.test.json');
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  )!;
  // ES modules (pages use top-level `await`, as an application's entry module can), resolved as a bundler would.
  const options: ts.CompilerOptions = {
    ...config.options,
    noEmit: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
  };
  const byFile = new Map(blocks.map((block) => [block.fileName, block]));
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const readFile = host.readFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    const block = byFile.get(path.resolve(fileName));
    // `export {}` makes every block a module of its own, so two pages may both declare `class Params`.
    return block
      ? ts.createSourceFile(fileName, `${block.code}\nexport {};\n`, languageVersion, true)
      : getSourceFile(fileName, languageVersion, ...rest);
  };
  host.fileExists = (fileName) => byFile.has(path.resolve(fileName)) || fileExists(fileName);
  host.readFile = (fileName) => byFile.get(path.resolve(fileName))?.code ?? readFile(fileName);
  const program = ts.createProgram({ rootNames: [...byFile.keys()], options, host });
  const result = new Map<DocBlock, string[]>();
  for (const block of blocks) {
    const sourceFile = program.getSourceFile(block.fileName)!;
    const diagnostics = [...program.getSyntacticDiagnostics(sourceFile), ...program.getSemanticDiagnostics(sourceFile)];
    result.set(
      block,
      diagnostics.map((diagnostic) => {
        const { line } =
          diagnostic.start === undefined ? { line: 0 } : sourceFile.getLineAndCharacterOfPosition(diagnostic.start);
        return `${block.page}:${block.line + 1 + line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
      }),
    );
  }
  return result;
}

/**
 * Runs a block as the page shows it: its imports resolve as the test's do (to the package sources), its top-level
 * statements run inside one async function (so the page's top-level `await` works), and the values of its top-level
 * declarations are returned by name (`{ executor, result }`). What the block's context comment declares (`registry`)
 * is taken from `given`.
 */
export async function runBlock(block: DocBlock, given: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const source = ts.createSourceFile(block.fileName, block.code, ts.ScriptTarget.Latest, true);
  const imports: string[] = [];
  const body: string[] = [];
  const names: string[] = [];
  const declared: string[] = [];
  for (const statement of source.statements) {
    const ambient =
      ts.canHaveModifiers(statement) &&
      ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.DeclareKeyword);
    if (ambient) {
      if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations)
          if (ts.isIdentifier(declaration.name)) declared.push(declaration.name.text);
      } else if ((ts.isClassDeclaration(statement) || ts.isFunctionDeclaration(statement)) && statement.name) {
        declared.push(statement.name.text);
      }
      continue;
    }
    if (ts.isImportDeclaration(statement)) {
      imports.push(statement.getFullText(source));
      continue;
    }
    body.push(statement.getFullText(source));
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name)) names.push(declaration.name.text);
    } else if ((ts.isClassDeclaration(statement) || ts.isFunctionDeclaration(statement)) && statement.name) {
      names.push(statement.name.text);
    }
  }
  const missing = declared.filter((name) => !(name in given));
  if (missing.length > 0)
    throw new Error(
      `${block.page}:${block.line}: the block needs ${missing.join(', ')} (its ts-context comment declares them); pass them to runBlock.`,
    );
  const program = `${imports.join('')}\nexport async function run(given: any) {\nconst { ${declared.join(', ')} } = given;\n${body.join('')}\nreturn { ${names.join(', ')} };\n}\n`;
  const { outputText } = ts.transpileModule(program, {
    fileName: block.fileName,
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      esModuleInterop: true,
    },
  });
  const module = { exports: {} as { run?: (given: Record<string, unknown>) => Promise<Record<string, unknown>> } };
  // The block's own code, compiled above; `require` is this test module's, so '@toolwright/core' is the same instance.
  new Function('require', 'module', 'exports', outputText)(require, module, module.exports);
  return module.exports.run!(given);
}
