#!/usr/bin/env node
// Checks every publishable package under packages/* as a user would receive it (run after `npm run build`):
//   1. `npm pack`; the tarball holds package.json, README.md, LICENSE, every `exports` target, and source maps whose
//      sources are in the tarball; no declaration file imports an optional peer;
//   2. publint (no errors, warnings or suggestions) and arethetypeswrong (offline: --no-definitely-typed) on the tarball;
//   3. an empty project outside the repository installs the tarballs with every peer, compiles a consumer that imports
//      every public entry point (read from each package's `exports`) with `skipLibCheck: false`, and runs it;
//   4. a second empty project installs the tarballs with the required peers only (no optional peer) and does the same;
//   5. examples/nest-app compiled against the tarballs and started;
//   6. the README's install lines, tsconfig.json and example, run as written;
//   7. a Nest app without MCP (no MCP SDK, no DOM lib).
// Every project compiles with TypeScript 6 and 7 and runs on this Node and each --node <path> (CI adds Node 20).
// The tarballs come from scripts/pack.mjs (`npm run pack`); new packages are picked up from packages/*/package.json.
// Usage: node scripts/check-packages.mjs [--keep] [--node <path>]... (--keep: keep the temporary folder, print its path).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative } from 'node:path';
import { ROOT, packAll } from './pack.mjs';

const keep = process.argv.includes('--keep');
// The Node.js binaries the consumers and the Nest app run on: this one, and each `--node <path>` (CI adds the
// machine's Node 20, so the engines range `^20.19.0 || >=22.12.0` is checked at both ends).
const runtimes = [
  process.execPath,
  ...process.argv.flatMap((argument, index) => (argument === '--node' ? [process.argv[index + 1]] : [])),
].map((path) => {
  if (!path || !existsSync(path)) throw new Error(`--node needs the path of a Node.js binary (got ${path})`);
  return { path, version: execFileSync(path, ['--version'], { encoding: 'utf8' }).trim() };
});
const problems = [];
const problem = (pkg, text) => problems.push(`${pkg}: ${text}`);
const log = (text) => process.stdout.write(`check-packages: ${text}\n`);

function run(command, args, options = {}) {
  return execFileSync(command, args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
    ...options,
  });
}
function tryRun(command, args, options = {}) {
  try {
    return { ok: true, output: run(command, args, options) };
  } catch (error) {
    return { ok: false, output: `${error.stdout ?? ''}${error.stderr ?? ''}` || String(error) };
  }
}
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const rootRequire = createRequire(join(ROOT, 'package.json'));

/** The version installed at the root (what the tests ran against), else the range itself. */
function testedSpec(name, range) {
  for (const base of rootRequire.resolve.paths(name) ?? []) {
    const file = join(base, name, 'package.json');
    if (existsSync(file)) {
      const { version } = readJson(file);
      if (typeof version === 'string') return `${name}@${version}`;
    }
  }
  return `${name}@${range}`;
}

// ---------------------------------------------------------------------------------------------------------------
const work = mkdtempSync(join(tmpdir(), 'toolwright-packages-'));
if (relative(ROOT, work).split(/[\\/]/)[0] !== '..')
  throw new Error(`The temporary folder ${work} is inside the repository.`);
const tarballs = join(work, 'tarballs');
log(`working in ${work}`);

/** Every public entry point of a package: its `exports` keys, wildcards expanded against the packed files. */
function entryPoints(manifest, files) {
  const exportsField = manifest.exports ?? { '.': manifest.main ?? './index.js' };
  const entries = [];
  for (const [key, target] of Object.entries(typeof exportsField === 'string' ? { '.': exportsField } : exportsField)) {
    if (key === './package.json') continue;
    const targets = collectTargets(target);
    if (!key.includes('*')) {
      entries.push({ subpath: key, targets });
      continue;
    }
    const pattern = targets.find((candidate) => candidate.includes('*'));
    if (pattern === undefined) {
      problem(manifest.name, `exports["${key}"] has a wildcard key and no wildcard target`);
      continue;
    }
    const [before, after] = pattern.replace(/^\.\//, '').split('*');
    for (const file of files) {
      if (!file.startsWith(before) || !file.endsWith(after) || file.length < before.length + after.length + 1) continue;
      const star = file.slice(before.length, file.length - after.length);
      if (star.includes('/')) continue;
      entries.push({
        subpath: key.replace('*', star),
        targets: targets.map((candidate) => candidate.replace('*', star)),
      });
    }
  }
  return entries;
}
function collectTargets(target) {
  if (typeof target === 'string') return [target];
  if (Array.isArray(target)) return target.flatMap(collectTargets);
  if (target && typeof target === 'object') return Object.values(target).flatMap(collectTargets);
  return [];
}

// 1. Pack and inspect.
const packed = [];
for (const { directory, manifest, tarball, info } of packAll(tarballs)) {
  const files = info.files.map((file) => file.path);
  const fileSet = new Set(files);
  for (const required of ['package.json', 'README.md', 'LICENSE'])
    if (!fileSet.has(required)) problem(manifest.name, `the tarball has no ${required}`);
  for (const field of ['license', 'repository', 'homepage', 'bugs', 'keywords'])
    if (manifest[field] === undefined) problem(manifest.name, `package.json has no "${field}"`);
  if (manifest.publishConfig?.access !== 'public')
    problem(
      manifest.name,
      'package.json needs "publishConfig": { "access": "public" } (a scoped package publishes as restricted otherwise)',
    );
  const entries = entryPoints(manifest, files);
  for (const entry of entries) {
    for (const target of entry.targets)
      if (!fileSet.has(target.replace(/^\.\//, '')))
        problem(manifest.name, `exports["${entry.subpath}"] points at ${target}, which is not in the tarball`);
  }
  // Source maps: every source they name is in the tarball.
  for (const map of files.filter((file) => file.endsWith('.map'))) {
    const content = JSON.parse(readFileSync(join(directory, map), 'utf8'));
    for (const source of content.sources ?? []) {
      const resolved = posix.normalize(posix.join(posix.dirname(map), content.sourceRoot ?? '', source));
      if (!fileSet.has(resolved)) {
        problem(manifest.name, `${map} names ${source} (${resolved}), which is not in the tarball`);
        break;
      }
    }
  }
  // Declarations never import an optional peer, except under a subpath entry of their own (`@toolwright/interop/ai-sdk`
  // is for AI SDK users: its declarations name the AI SDK, and only a consumer with that peer imports it).
  const optionalPeers = Object.entries(manifest.peerDependenciesMeta ?? {})
    .filter(([, meta]) => meta?.optional)
    .map(([name]) => name);
  for (const entry of entries) entry.optionalPeers = new Set();
  const subpathEntryOf = (declaration) =>
    entries.find(
      (entry) =>
        entry.subpath !== '.' &&
        entry.targets.some(
          (target) =>
            target.endsWith('.d.ts') && declaration.startsWith(posix.dirname(target.replace(/^\.\//, '')) + '/'),
        ),
    );
  for (const declaration of files.filter((file) => file.endsWith('.d.ts'))) {
    // Code only: a doc comment may name the SDK.
    const text = readFileSync(join(directory, declaration), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    for (const peer of optionalPeers) {
      const escaped = peer.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      if (!new RegExp(`(from\\s+|import\\s*\\(\\s*|require\\s*\\(\\s*)['"]${escaped}(/[^'"]*)?['"]`).test(text))
        continue;
      const own = subpathEntryOf(declaration);
      if (own) own.optionalPeers.add(peer);
      else problem(manifest.name, `${declaration} imports the optional peer ${peer}`);
    }
  }
  packed.push({ directory, manifest, tarball, entries });
  log(
    `packed ${manifest.name}: ${files.length} files, ${(info.size / 1024).toFixed(0)} kB, ${entries.length} entry point(s)`,
  );
}

// 2. publint and arethetypeswrong.
const { publint } = await import(rootRequire.resolve('publint'));
const { formatMessage } = await import(rootRequire.resolve('publint/utils'));
const attw = join(dirname(rootRequire.resolve('@arethetypeswrong/cli/package.json')), 'dist', 'index.js');
for (const { manifest, tarball } of packed) {
  const { messages, pkg } = await publint({
    level: 'suggestion',
    strict: true,
    pack: { tarball: new Uint8Array(readFileSync(tarball)).buffer },
  });
  for (const message of messages)
    problem(manifest.name, `publint ${message.type}: ${formatMessage(message, pkg) ?? message.code}`);
  const types = tryRun(process.execPath, [
    attw,
    tarball,
    '--no-definitely-typed',
    '--profile',
    'node16',
    '--format',
    'json',
    '--no-color',
  ]);
  let report;
  try {
    report = JSON.parse(types.output);
  } catch {
    problem(manifest.name, `arethetypeswrong did not run: ${types.output.slice(0, 500)}`);
    continue;
  }
  // The node16 profile: node10 resolution (no `exports` support) is not a target, as --profile node16 says.
  const found_ = (report.analysis?.problems ?? []).filter((found) => found.resolutionKind !== 'node10');
  for (const found of found_)
    problem(
      manifest.name,
      `arethetypeswrong ${found.kind}${found.entrypoint ? ` at ${found.entrypoint}` : ''}${found.resolutionKind ? ` (${found.resolutionKind})` : ''}`,
    );
  log(`${manifest.name}: publint ${messages.length} message(s), arethetypeswrong ${found_.length} problem(s)`);
}

// 3 and 4. Consumers outside the repository.
const allPeers = new Map();
const requiredPeers = new Map();
const ownNames = new Set(packed.map(({ manifest }) => manifest.name));
for (const { manifest } of packed) {
  for (const [name, range] of Object.entries(manifest.peerDependencies ?? {})) {
    if (ownNames.has(name)) continue;
    allPeers.set(name, range);
    if (!manifest.peerDependenciesMeta?.[name]?.optional) requiredPeers.set(name, range);
  }
}

function consumerSource(peers) {
  const lines = ["import 'reflect-metadata';"];
  const names = [];
  packed.forEach(({ manifest, entries }, packageIndex) => {
    entries.forEach((entry, entryIndex) => {
      // An entry for one framework is compiled only where that framework is installed.
      if ([...(entry.optionalPeers ?? [])].some((peer) => !peers.has(peer))) return;
      const specifier =
        entry.subpath === '.' ? manifest.name : `${manifest.name}/${entry.subpath.replace(/^\.\//, '')}`;
      const local = `entry_${packageIndex}_${entryIndex}`;
      lines.push(`import * as ${local} from '${specifier}';`);
      names.push([specifier, local]);
    });
  });
  const core = packed.find(({ manifest }) => manifest.name === '@toolwright/core');
  lines.push(
    '',
    'const entries: Record<string, object> = {',
    ...names.map(([specifier, local]) => `  '${specifier}': ${local},`),
    '};',
  );
  lines.push(
    'const counts: Record<string, number> = {};',
    'for (const [specifier, entry] of Object.entries(entries)) {',
    '  counts[specifier] = Object.keys(entry).length;',
    '  if (counts[specifier] === 0) throw new Error(`${specifier} exports nothing`);',
    '}',
  );
  if (core) {
    // A real use of the core package: a decorated command, executed with a repaired call.
    const local = names.find(([specifier]) => specifier === '@toolwright/core')[1];
    lines.push(
      `const { Command, PersonaToolExecutor, ToolParam, ToolRegistry, silentLogger } = ${local};`,
      'class FactorialParams {',
      "  @ToolParam({ type: 'int', description: 'A whole number', min: 0 }) number!: number;",
      '}',
      "@Command({ name: 'math.factorial', description: 'Factorial of a number', params: FactorialParams })",
      'class Factorial {',
      '  execute({ number }: FactorialParams): number { let product = 1; for (let i = 2; i <= number; i++) product *= i; return product; }',
      '}',
      'async function main(): Promise<void> {',
      '  const executor = new PersonaToolExecutor(ToolRegistry.from([Factorial], { logger: silentLogger }), { logger: silentLogger });',
      "  const result = await executor.execute({ id: 'c1', name: 'math.factorial', arguments: '{\"number\": \"5\"}' });",
      '  if (!result.ok || result.value !== 120) throw new Error(`unexpected result ${JSON.stringify(result)}`);',
      "  process.stdout.write(JSON.stringify({ counts, factorial: result.value }) + '\\n');",
      '}',
      'main().catch((error: unknown) => { console.error(error); process.exit(1); });',
    );
  } else {
    lines.push("process.stdout.write(JSON.stringify({ counts }) + '\\n');");
  }
  return `${lines.join('\n')}\n`;
}

// DOM in lib: the MCP SDK's own declarations name DOM's fetch types (HeadersInit), which @types/node does not declare
// globally; without it no consumer of @modelcontextprotocol/sdk compiles with skipLibCheck: false.
const TSCONFIG = {
  compilerOptions: {
    target: 'ES2023',
    lib: ['ES2023', 'DOM'],
    module: 'nodenext',
    moduleResolution: 'nodenext',
    types: ['node'],
    strict: true,
    noUncheckedIndexedAccess: true,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    skipLibCheck: false,
    outDir: 'dist',
    rootDir: 'src',
  },
  include: ['src'],
};

const PEER_TYPE_PACKAGES = { ai: ['@types/json-schema'] };

// Every consumer and the Nest app compile with each supported TypeScript: 6 (the version the repository builds with)
// and 7 (the native compiler the registry serves as `latest`; it emits decorator metadata as 6 does). Each is installed
// in a folder of its own and runs on the consumer's project.
const TYPESCRIPT_7 = '7.0.2';
const compilers = [
  ['6', testedSpec('typescript', '^6')],
  ['7', `typescript@${TYPESCRIPT_7}`],
].map(([major, spec]) => {
  const directory = join(work, `typescript-${major}`);
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, 'package.json'), '{ "private": true }\n');
  run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', spec], { cwd: directory });
  const tsc = join(directory, 'node_modules', 'typescript', 'bin', 'tsc');
  const version = run(process.execPath, [tsc, '--version']).trim();
  if (!version.startsWith(`Version ${major}.`)) throw new Error(`${spec} answers ${version}`);
  log(`compiler: TypeScript ${version.replace('Version ', '')} (${spec})`);
  return { major, tsc };
});

/**
 * Compiles `project` with each TypeScript into dist-<major>/ and runs `entry` (a path inside the output) on each Node
 * runtime; returns the last stdout line of each run, or undefined after recording a problem.
 */
function compileAndRun(label, project, entry, environment = {}) {
  const lines = [];
  for (const { major, tsc } of compilers) {
    const outDir = join(project, `dist-${major}`);
    const compile = tryRun(process.execPath, [tsc, '-p', project, '--outDir', outDir]);
    if (!compile.ok) {
      problem(
        label,
        `does not compile with TypeScript ${major} (skipLibCheck: false):\n${compile.output.slice(0, 4000)}`,
      );
      return undefined;
    }
    if (entry === undefined) continue;
    for (const runtime of runtimes) {
      const ran = tryRun(runtime.path, [join(outDir, entry)], {
        cwd: project,
        env: { ...process.env, ...environment },
      });
      if (!ran.ok) {
        problem(
          label,
          `the TypeScript ${major} build failed on Node ${runtime.version}:\n${ran.output.slice(0, 4000)}`,
        );
        return undefined;
      }
      lines.push(ran.output.trim().split('\n').pop());
    }
  }
  return lines;
}

function checkConsumer(label, peers) {
  const directory = join(work, label);
  mkdirSync(join(directory, 'src'), { recursive: true });
  writeFileSync(
    join(directory, 'package.json'),
    JSON.stringify(
      { name: `toolwright-consumer-${label}`, version: '1.0.0', private: true, type: 'commonjs' },
      null,
      2,
    ),
  );
  writeFileSync(join(directory, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  writeFileSync(join(directory, 'src', 'consumer.ts'), consumerSource(peers));
  // Type packages a peer's own declarations need but do not depend on (the AI SDK's name the `json-schema` types).
  const extraTypes = [...peers.keys()]
    .flatMap((name) => PEER_TYPE_PACKAGES[name] ?? [])
    .map((name) => testedSpec(name, '*'));
  const specs = [
    ...packed.map(({ tarball }) => tarball),
    ...[...peers].map(([name, range]) => testedSpec(name, range)),
    ...extraTypes,
    testedSpec('@types/node', '*'),
  ];
  const install = tryRun(
    npm,
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--legacy-peer-deps', ...specs],
    { cwd: directory },
  );
  if (!install.ok) {
    problem(label, `npm install failed: ${install.output.slice(-2000)}`);
    return;
  }
  const missing = [...peers.keys()].filter((name) => !existsSync(join(directory, 'node_modules', name)));
  if (missing.length > 0) problem(label, `peers not installed: ${missing.join(', ')}`);
  const outputs = compileAndRun(label, directory, 'consumer.js');
  if (!outputs) return;
  const report = JSON.parse(outputs[0]);
  if (outputs.some((output) => output !== outputs[0]))
    problem(label, `the builds and runtimes disagree: ${outputs.join(' / ')}`);
  log(
    `${label}: ${Object.keys(report.counts).length} entry points compiled (skipLibCheck: false) with TypeScript ${compilers.map(({ major }) => major).join(' and ')} and loaded on Node ${runtimes.map(({ version }) => version).join(' and ')}${report.factorial ? `; a decorated command ran (factorial 5 = ${report.factorial})` : ''}`,
  );
}

const consumerPeers = [
  ['all-peers', allPeers],
  ['required-peers-only', requiredPeers],
];
for (const [label, peers] of consumerPeers) {
  log(`${label}: installing ${packed.length} tarball(s) and ${peers.size} peer(s)`);
  checkConsumer(label, peers);
}

// 5. An application as a user writes it, against the tarballs: examples/nest-app (issue 13) compiled in the all-peers
// project with skipLibCheck: false by each TypeScript and started; GET /tools must list its commands and a tool call
// must run add_note, whose constructor-injected service and parameter types both come from decorator metadata.
async function checkNestApp() {
  const directory = join(work, 'all-peers');
  if (!existsSync(join(directory, 'node_modules', '@toolwright', 'nestjs'))) return;
  const install = tryRun(
    npm,
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--legacy-peer-deps',
      testedSpec('@nestjs/platform-express', '*'),
    ],
    { cwd: directory },
  );
  if (!install.ok) return problem('nest-app', `npm install failed: ${install.output.slice(-2000)}`);
  const app = join(directory, 'nest-app');
  rmSync(app, { recursive: true, force: true });
  mkdirSync(app, { recursive: true });
  execFileSync('cp', ['-r', join(ROOT, 'examples', 'nest-app', 'src'), join(app, 'src')]);
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  if (!compileAndRun('nest-app', app, undefined)) return;
  for (const { major } of compilers)
    for (const runtime of runtimes)
      await startNestApp(
        join(app, `dist-${major}`, 'main.js'),
        `TypeScript ${major}, Node ${runtime.version}`,
        runtime,
      );
}

async function startNestApp(main, built, runtime) {
  const label = `nest-app (${built})`;
  const child = spawn(runtime.path, [main, '--port', '0'], {
    cwd: dirname(main),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  try {
    const url = await new Promise((resolveUrl, reject) => {
      const timer = setTimeout(() => reject(new Error('did not start within 60 s')), 60_000);
      const look = () => {
        const match = /listening on (http:\/\/[^\s]+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolveUrl(match[1].replace('[::1]', '127.0.0.1'));
        }
      };
      child.stderr.on('data', look);
      child.once('exit', (code) => reject(new Error(`exited with ${code}`)));
    });
    const response = await fetch(`${url}/tools?provider=openai`);
    const tools = JSON.stringify(await response.json());
    if (response.status !== 200 || !tools.includes('add_note'))
      return problem(label, `GET /tools answered ${response.status}: ${tools.slice(0, 500)}`);
    const call = await fetch(`${url}/tool-calls`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-session-id': 's1' },
      body: JSON.stringify({
        tool_call: { id: 'c1', type: 'function', function: { name: 'add_note', arguments: '{"text": "typed"}' } },
      }),
    });
    const answer = await call.json();
    if (call.status !== 200 || answer.result?.ok !== true || answer.result.value?.saved !== 'typed')
      return problem(label, `POST /tool-calls answered ${call.status}: ${JSON.stringify(answer).slice(0, 500)}`);
    log(
      `${label}: compiled against the tarballs (skipLibCheck: false), started, GET /tools lists its commands, add_note ran`,
    );
  } catch (error) {
    problem(label, `${error.message}\n${output.slice(-2000)}`);
  } finally {
    child.kill('SIGTERM');
  }
}
await checkNestApp();

// 6. The README as a new user follows it: its before-the-release install lines (the clone's tarball folder replaced by
// this run's), its tsconfig.json exactly, and its example as an ES module in src/, compiled by each TypeScript and run. No
// `"types": ["node"]` and skipLibCheck: false: @toolwright/core's declarations must need no Node.js types.
function checkReadme() {
  const label = 'README';
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const blocks = (language) =>
    [...readme.matchAll(new RegExp(`^\`\`\`${language}\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((match) => match[1]);
  const FOLDER = '../toolwright/dist/tarballs/';
  const installs = blocks('sh')
    .flatMap((block) => block.split('\n'))
    .filter((line) => line.startsWith(`npm install ${FOLDER}`))
    .map((line) =>
      line
        .replace(/\s+#.*$/, '')
        .split(/\s+/)
        .slice(2),
    );
  const [tsconfig] = blocks('json');
  const [example] = blocks('ts');
  if (installs.length === 0 || tsconfig === undefined || example === undefined)
    return problem(label, `no install line with ${FOLDER}, json block or ts block found in README.md`);
  const options = JSON.parse(tsconfig).compilerOptions;
  if (options.types !== undefined || options.skipLibCheck !== false)
    problem(label, 'the README tsconfig.json must set skipLibCheck: false and no "types"');
  const directory = join(work, 'readme');
  mkdirSync(directory, { recursive: true });
  writeFileSync(
    join(directory, 'package.json'),
    JSON.stringify({ name: 'toolwright-readme', version: '1.0.0', private: true, type: 'module' }, null, 2),
  );
  writeFileSync(join(directory, 'tsconfig.json'), tsconfig);
  // The usual layout: sources in src/, the output beside them. TypeScript 6 and 7 refuse it (TS5011) unless the
  // tsconfig sets rootDir, so the README's must, and the example is compiled from there.
  mkdirSync(join(directory, 'src'), { recursive: true });
  writeFileSync(
    join(directory, 'src', 'index.ts'),
    `${example}\nconsole.log(JSON.stringify({ value: result.ok ? result.value : result.error, rules: result.transformations.map((change) => change.rule) }));\n`,
  );
  for (const words of installs) {
    const specs = words.map((word) => (word.startsWith(FOLDER) ? join(tarballs, word.slice(FOLDER.length)) : word));
    const install = tryRun(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', ...specs], {
      cwd: directory,
    });
    if (!install.ok) return problem(label, `npm install ${words.join(' ')} failed: ${install.output.slice(-2000)}`);
  }
  const outputs = compileAndRun(label, directory, 'index.js', { TOOLWRIGHT_LOG_LEVEL: 'error' });
  if (!outputs) return;
  const expected = JSON.stringify({
    value: { question: 'Ship?', options: 2 },
    rules: ['single-quotes', 'json-string-to-array', 'dropped-context-field'],
  });
  if (outputs.some((output) => output !== expected))
    return problem(label, `the example printed ${outputs.join(' / ')}, expected ${expected}`);
  log(
    `README: ${installs.length} install line(s) as written, its tsconfig.json (no "types", skipLibCheck: false), its example in src/ compiled with TypeScript ${compilers.map(({ major }) => major).join(' and ')} and run on Node ${runtimes.map(({ version }) => version).join(' and ')}: ${expected}`,
  );
}
checkReadme();

// 7. A Nest app without MCP (issue 31), as a user on a fresh project writes it: only @toolwright/core, /providers and
// /nestjs from the tarballs, installed by plain `npm install` (peers resolved by npm, optional ones left out): no MCP
// SDK and no @toolwright/mcp may arrive, and the app compiles with skipLibCheck: false and no DOM in lib; then it
// starts, lists its tool, runs a call, and answers a malformed body with 400.
const NEST_WITHOUT_MCP_SOURCE = `import 'reflect-metadata';
import { BadRequestException, Body, Controller, Get, Injectable, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Command, PersonaToolExecutor, ToolParam } from '@toolwright/core';
import { ProviderTools, StderrConsoleLogger, ToolwrightModule } from '@toolwright/nestjs';

class GreetParams {
  @ToolParam({ description: 'Who to greet', minLength: 1 }) name!: string;
  @ToolParam({ type: 'int', description: 'How many times', min: 1, max: 3 }) times!: number;
}

@Injectable()
@Command({ name: 'greet', description: 'Greets someone', params: GreetParams })
class GreetCommand {
  execute({ name, times }: GreetParams): string {
    return Array.from({ length: times }, () => \`hello \${name}\`).join(', ');
  }
}

@Controller()
class ToolsController {
  constructor(
    private readonly executor: PersonaToolExecutor,
    private readonly providerTools: ProviderTools,
  ) {}

  @Get('tools')
  tools() {
    return this.providerTools.definitions('openai');
  }

  @Post('tool-calls')
  async call(@Body() body: { tool_call?: unknown }) {
    const toolCall = body?.tool_call;
    if (typeof toolCall !== 'object' || toolCall === null || Array.isArray(toolCall))
      throw new BadRequestException('The body must be { "tool_call": { "id", "type": "function", "function": { "name", "arguments" } } }.');
    const [call] = this.providerTools.parseCalls('openai', [toolCall]);
    if (call === undefined) throw new BadRequestException('tool_call is not a function call.');
    return this.executor.execute(call, { sessionId: 'consumer' });
  }
}

@Module({ imports: [ToolwrightModule.forRoot()], providers: [GreetCommand], controllers: [ToolsController] })
class AppModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create(AppModule, { logger: new StderrConsoleLogger() });
  await app.listen(0, '127.0.0.1');
  process.stderr.write(\`listening on \${await app.getUrl()}\\n\`);
}
main().catch((error: unknown) => { console.error(error); process.exit(1); });
`;

/** Starts `node file`, resolves with its URL from a `listening on <url>` line on stderr (bounded), and the child. */
function startListening(file, cwd) {
  const child = spawn(process.execPath, [file], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const url = new Promise((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error('did not start within 60 s')), 60_000);
    child.stderr.on('data', () => {
      const match = /listening on (http:\/\/[^\s]+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolveUrl(match[1].replace('[::1]', '127.0.0.1'));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}`));
    });
  });
  return { child, url, output: () => output };
}

async function checkNestAppWithoutMcp() {
  const label = 'nest-app-without-mcp';
  const names = ['@toolwright/core', '@toolwright/providers', '@toolwright/nestjs'];
  const tarballsNeeded = packed.filter(({ manifest }) => names.includes(manifest.name)).map(({ tarball }) => tarball);
  if (tarballsNeeded.length !== names.length) return problem(label, `not every one of ${names.join(', ')} was packed`);
  const directory = join(work, label);
  mkdirSync(join(directory, 'src'), { recursive: true });
  writeFileSync(
    join(directory, 'package.json'),
    JSON.stringify(
      { name: `toolwright-consumer-${label}`, version: '1.0.0', private: true, type: 'commonjs' },
      null,
      2,
    ),
  );
  const compilerOptions = { ...TSCONFIG.compilerOptions, lib: ['ES2023'] };
  writeFileSync(join(directory, 'tsconfig.json'), JSON.stringify({ ...TSCONFIG, compilerOptions }, null, 2));
  writeFileSync(join(directory, 'src', 'main.ts'), NEST_WITHOUT_MCP_SOURCE);
  const specs = [
    ...tarballsNeeded,
    ...['@nestjs/common', '@nestjs/core', '@nestjs/platform-express', 'rxjs', 'reflect-metadata'].map((name) =>
      testedSpec(name, '*'),
    ),
    ...['class-validator', 'class-transformer', 'tsyringe'].map((name) => testedSpec(name, '*')),
    testedSpec('typescript', '*'),
    testedSpec('@types/node', '*'),
  ];
  // A plain install: npm resolves the required peers and leaves the optional ones out, as for a user.
  const install = tryRun(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', ...specs], { cwd: directory });
  if (!install.ok) return problem(label, `npm install failed: ${install.output.slice(-2000)}`);
  const arrived = ['@modelcontextprotocol/sdk', '@toolwright/mcp'].filter((name) =>
    existsSync(join(directory, 'node_modules', name)),
  );
  if (arrived.length > 0) return problem(label, `installed without asking for them: ${arrived.join(', ')}`);
  const compile = tryRun(process.execPath, [
    join(directory, 'node_modules', 'typescript', 'bin', 'tsc'),
    '-p',
    directory,
  ]);
  if (!compile.ok)
    return problem(
      label,
      `does not compile with skipLibCheck: false and lib ES2023 (no DOM):\n${compile.output.slice(0, 4000)}`,
    );
  const app = startListening(join(directory, 'dist', 'main.js'), directory);
  try {
    const url = await app.url;
    const tools = await (await fetch(`${url}/tools`)).json();
    if (JSON.stringify(tools).indexOf('"greet"') === -1) return problem(label, `GET /tools: ${JSON.stringify(tools)}`);
    const post = (body) =>
      fetch(`${url}/tool-calls`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const called = await post(
      JSON.stringify({
        tool_call: {
          id: 'c1',
          type: 'function',
          function: { name: 'greet', arguments: '{"name": "ana", "times": "2"}' },
        },
      }),
    );
    const result = await called.json();
    if (called.status !== 201 || result.ok !== true || result.value !== 'hello ana, hello ana')
      return problem(label, `POST /tool-calls answered ${called.status}: ${JSON.stringify(result)}`);
    const malformed = await post('{"nope": 1}');
    const refusal = await malformed.json();
    if (malformed.status !== 400 || !String(refusal.message).startsWith('The body must be'))
      return problem(label, `a malformed body got ${malformed.status}: ${JSON.stringify(refusal)}`);
    log(
      `${label}: installed from 3 tarballs without @toolwright/mcp or the MCP SDK, compiled (skipLibCheck: false, no DOM), started; a call ran, a malformed body got 400`,
    );
  } catch (error) {
    problem(label, `${error.message}\n${app.output().slice(-2000)}`);
  } finally {
    app.child.kill('SIGTERM');
  }
}
await checkNestAppWithoutMcp();

if (!keep) rmSync(work, { recursive: true, force: true });
else log(`kept ${work}`);
if (problems.length > 0) {
  process.stderr.write(
    `check-packages: ${problems.length} problem(s):\n${problems.map((text) => `  - ${text}`).join('\n')}\n`,
  );
  process.exit(1);
}
log('every package passed');
