// An ESLint rule: no import cycle inside a package's `src/`, type-only imports included.
//
// `import-x/no-cycle` follows runtime imports only (it skips `import type` and imports whose every specifier is a type,
// and has no option to count them). A cycle of type imports still ties the modules into one unit: neither can be moved,
// split or understood without the other. This rule reads every module's imports and re-exports (`import`,
// `import type`, `export ... from`, `import()`, `require()`) with TypeScript's own pre-processor, builds each package's
// graph of relative imports once per lint run, and reports every import of a linted file that leads back to it, with
// the whole route.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** A package's source folder (`.../packages/<name>/src`) for a file in it, or undefined. */
function sourceFolderOf(file) {
  const parts = resolve(file).split(sep);
  const at = parts.lastIndexOf('packages');
  if (at === -1 || parts[at + 2] !== 'src') return undefined;
  return parts.slice(0, at + 3).join(sep);
}

/** The module a relative specifier names (a `.ts` file, or a folder's `index.ts`), or undefined. */
function resolveSpecifier(from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ''));
  for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) if (existsSync(candidate)) return candidate;
  return undefined;
}

function sourceFiles(folder, found = []) {
  for (const entry of readdirSync(folder)) {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) sourceFiles(path, found);
    else if (path.endsWith('.ts') && !path.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

/** Each package's import graph (module -> the modules it imports), built once per lint run. */
const graphs = new Map();

function graphOf(folder) {
  let graph = graphs.get(folder);
  if (graph === undefined) {
    graph = new Map();
    for (const file of sourceFiles(folder)) {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const targets = new Set();
      for (const { fileName } of importedFiles) {
        const target = resolveSpecifier(file, fileName);
        if (target !== undefined && target !== file) targets.add(target);
      }
      graph.set(file, [...targets]);
    }
    graphs.set(folder, graph);
  }
  return graph;
}

/** The shortest route of imports from `start` to `goal` (both included), or undefined. */
function route(graph, start, goal) {
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  for (let at = 0; at < queue.length; at++) {
    const current = queue[at];
    if (current === goal) {
      const path = [];
      for (let step = goal; step !== undefined; step = previous.get(step)) path.unshift(step);
      return path;
    }
    for (const next of graph.get(current) ?? []) {
      if (previous.has(next)) continue;
      previous.set(next, current);
      queue.push(next);
    }
  }
  return undefined;
}

const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'No import cycle inside a package, type-only imports and re-exports included.' },
    schema: [],
    messages: {
      cycle: 'Import cycle (type-only imports count): {{route}}. Move the shared piece to a module both can import.',
    },
  },
  create(context) {
    const file = resolve(context.physicalFilename);
    const folder = sourceFolderOf(file);
    if (folder === undefined) return {};
    const check = (node) => {
      const specifier = node.source?.value;
      if (typeof specifier !== 'string') return;
      const target = resolveSpecifier(file, specifier);
      if (target === undefined || target === file) return;
      const graph = graphOf(folder);
      if (!graph.has(target)) return;
      const back = route(graph, target, file);
      if (back === undefined) return;
      const names = [file, ...back].map((path) => relative(folder, path).split(sep).join('/'));
      context.report({ node, messageId: 'cycle', data: { route: names.join(' -> ') } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export const importCycles = { rules: { 'no-import-cycle': noImportCycle } };
