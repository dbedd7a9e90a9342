/**
 * The reading step's cost on two builds of core, measured in one process (ADR 0029): CPU time per call, median of
 * interleaved rounds, silent logger. Usage (from the repo root, both builds done with `npm run build`):
 *   npx ts-node --transpile-only -P tsconfig.jest.json -O '{"rootDir":"."}' packages/core/test/bench/reading.bench.ts \
 *     <baseline packages/core/dist> <candidate packages/core/dist>
 * Cases: valid calls round-robin over 50 JSON-Schema tools with distinct parameter names (the fast path: JSON.parse
 * plus the canonical check), one hot tool, and the tolerant paths the shared rules serve (a duplicate key in valid
 * JSON, Python literals, backslashes that escape nothing).
 */
import 'reflect-metadata';
import * as path from 'node:path';

interface Core {
  ToolRegistry: new (options: object) => {
    registerJsonSchemaTool(tool: object, handler: (params: unknown) => unknown): void;
  };
  PersonaToolExecutor: new (
    registry: unknown,
    options: object,
  ) => {
    prepare(call: object): Promise<{ ok: boolean }> | { ok: boolean };
  };
  silentLogger: object;
}

const TOOLS = 50;
const ROUNDS = 15;
const CALLS = 2048;

function setup(core: Core) {
  const registry = new core.ToolRegistry({ logger: core.silentLogger });
  for (let tool = 0; tool < TOOLS; tool++)
    registry.registerJsonSchemaTool(
      {
        name: `tool_${tool}`,
        parameters: {
          type: 'object',
          properties: {
            [`query_${tool}`]: { type: 'string', maxLength: 200 },
            [`limit_${tool}`]: { type: 'integer', minimum: 1, maximum: 100 },
            [`exact_${tool}`]: { type: 'boolean' },
            [`tags_${tool}`]: { type: 'array', items: { type: 'string' } },
          },
          required: [`query_${tool}`],
        },
      },
      (params) => params,
    );
  return new core.PersonaToolExecutor(registry, { logger: core.silentLogger, compile: 'registration' });
}

type Case = (tool: number, index: number) => string;
const CASES: Record<string, { tools: number; text: Case }> = {
  'valid, 50 tools round-robin': {
    tools: TOOLS,
    text: (t, i) =>
      `{"query_${t}":"cats ${i}","limit_${t}":${(i % 100) + 1},"exact_${t}":${i % 2 === 0},"tags_${t}":["a","b${i}"]}`,
  },
  'valid, one hot tool': {
    tools: 1,
    text: (t, i) => `{"query_${t}":"cats ${i}","limit_${t}":${(i % 100) + 1},"exact_${t}":true,"tags_${t}":["a"]}`,
  },
  'duplicate key, valid JSON': {
    tools: 1,
    text: (t, i) => `{"query_${t}":"cats ${i}","limit_${t}":3,"query_${t}":"cats ${i}"}`,
  },
  'Python literals': { tools: 1, text: (t, i) => `{'query_${t}': 'cats ${i}', 'exact_${t}': True}` },
  'backslashes kept (c:\\Users)': { tools: 1, text: (t, i) => `{"query_${t}": "c:\\Users\\ana ${i}"}` },
};

function cpuMicros(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

async function round(executor: ReturnType<typeof setup>, name: string, text: Case, tools: number, offset: number) {
  const calls = [];
  for (let index = 0; index < CALLS; index++) {
    const tool = index % tools;
    calls.push({ id: `c${index}`, name: `tool_${tool}`, arguments: text(tool, index + offset) });
  }
  const start = cpuMicros();
  for (const call of calls) {
    const result = await executor.prepare(call);
    if (!result.ok) throw new Error(`${name}: refused ${call.arguments}`);
  }
  return (cpuMicros() - start) / CALLS;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

async function main() {
  const [baselineDist, candidateDist] = process.argv.slice(2);
  if (!baselineDist || !candidateDist) throw new Error('usage: reading.bench.ts <baseline dist> <candidate dist>');
  const builds = [baselineDist, candidateDist].map((dist) => setup(require(path.resolve(dist)) as Core));
  for (const [name, { tools, text }] of Object.entries(CASES)) {
    const times: number[][] = [[], []];
    for (let warm = 0; warm < 3; warm++) for (const executor of builds) await round(executor, name, text, tools, warm);
    for (let r = 0; r < ROUNDS; r++)
      for (const [which, executor] of builds.entries()) times[which]!.push(await round(executor, name, text, tools, r));
    const [base, candidate] = times.map(median) as [number, number];
    const ratios = times[1]!.map((value, index) => value / times[0]![index]!);
    console.log(
      `${name.padEnd(30)} baseline ${base.toFixed(2)} us, candidate ${candidate.toFixed(2)} us, ratio of medians ${(candidate / base).toFixed(2)}, median of same-round ratios ${median(ratios).toFixed(2)}`,
    );
  }
}

void main();
