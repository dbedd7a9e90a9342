import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * Tests over the built output (`npm test` builds first; alone, run `npm run build`): the package's entry points, its
 * declaration files (each subpath reaches only its own framework), and the three examples as users run them
 * (`node examples/interop/dist/<framework>.js`), each against its own stubbed model on 127.0.0.1.
 */
const ROOT = resolve(__dirname, '..', '..', '..', '..');
const DIST = join(ROOT, 'packages', 'interop', 'dist');
const EXAMPLES = join(ROOT, 'examples', 'interop', 'dist');
const FRAMEWORKS = { 'ai-sdk': 'ai', langchain: '@langchain/core', 'openai-agents': '@openai/agents' } as const;

beforeAll(() => {
  const missing = [
    join(DIST, 'index.js'),
    ...Object.keys(FRAMEWORKS).flatMap((name) => [join(DIST, name, 'index.js'), join(EXAMPLES, `${name}.js`)]),
  ].filter((file) => !existsSync(file));
  if (missing.length > 0)
    throw new Error(`Not built: ${missing.join(', ')}. Run \`npm run build\` (npm test does) first.`);
});

describe('the built @toolwright/interop entry points', () => {
  it('export the public API of each subpath', () => {
    const exported = (subpath: string) => Object.keys(require(join(DIST, subpath, 'index.js')) as object).sort();
    expect(exported('.')).toEqual(['ToolResultError', 'frameworkToolNames', 'pickExecutionContext']);
    expect(exported('ai-sdk')).toEqual(['ToolResultError', 'createRepairToolCall', 'toAISDKTools']);
    expect(exported('langchain')).toEqual([
      'ToolResultError',
      'ToolwrightLangChainTool',
      'registerLangChainTool',
      'registerLangChainTools',
      'toLangChainTools',
    ]);
    expect(exported('openai-agents')).toEqual(['toAgentsTools', 'withArgumentRepair']);
  });

  /** Every bare module a declaration file reaches, following the package's own relative imports. */
  function reachedPackages(entry: string): Set<string> {
    const seen = new Set<string>();
    const packages = new Set<string>();
    const pending = [entry];
    while (pending.length > 0) {
      const file = pending.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
        if (specifier!.startsWith('.')) {
          const target = resolve(dirname(file), specifier!);
          pending.push(existsSync(`${target}.d.ts`) ? `${target}.d.ts` : join(target, 'index.d.ts'));
        } else {
          packages.add(specifier!);
        }
      }
    }
    return packages;
  }

  it("keeps each subpath's declarations to its own framework, so a consumer without the others compiles", () => {
    expect([...reachedPackages(join(DIST, 'index.d.ts'))]).toEqual(['@toolwright/core']);
    for (const [subpath, framework] of Object.entries(FRAMEWORKS)) {
      const reached = [...reachedPackages(join(DIST, subpath, 'index.d.ts'))].map((specifier) =>
        specifier.startsWith('@toolwright/')
          ? specifier
          : specifier
              .split('/')
              .slice(0, specifier.startsWith('@') ? 2 : 1)
              .join('/'),
      );
      expect({ subpath, packages: [...new Set(reached)].sort() }).toEqual({
        subpath,
        packages: ['@toolwright/core', framework].sort(),
      });
    }
  });
});

interface ExampleOutput {
  readonly framework: string;
  readonly answer: string;
  readonly toolOutput: { readonly attendees: string[]; readonly durationMinutes: number; readonly sessionId: string };
  readonly transformations: readonly string[];
}

/** Runs one example as a child process; killed if it has not finished within `timeoutMs`. */
function runExample(
  name: string,
  timeoutMs = 30_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [join(EXAMPLES, `${name}.js`)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stdout, stderr });
    });
  });
}

describe.each(Object.keys(FRAMEWORKS))('examples/interop: %s', (name) => {
  it("runs its framework's loop against the stubbed model and the command gets the recovered DTO with the trusted session", async () => {
    const { code, stdout, stderr } = await runExample(name);
    expect({ code, stderr: code === 0 ? '' : stderr }).toEqual({ code: 0, stderr: '' });
    const output = JSON.parse(stdout.trim().split('\n').at(-1)!) as ExampleOutput;
    expect(output.framework).toBe(name);
    expect(output.answer).toBe('The standup is scheduled.');
    expect(output.toolOutput).toMatchObject({
      attendees: ['ana@example.com', 'bo@example.com'],
      durationMinutes: 30,
      sessionId: 'session-from-your-auth',
    });
    expect([...output.transformations].sort()).toEqual([
      'attendees: json-string-to-array',
      'durationMinutes: key-case',
      'durationMinutes: string-to-integer',
      'sessionId: dropped-context-field',
    ]);
    // The forged session id is a security event: logged to stderr, never on stdout.
    expect(stderr).toMatch(/security: the model tried to set trusted context field "session_id"/);
    expect(stdout).not.toContain('forged');
  }, 60_000);
});
