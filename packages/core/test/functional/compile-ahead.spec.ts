import 'reflect-metadata';
import { Command, PersonaToolExecutor, ToolParam, ToolRegistry, silentLogger } from '@toolwright/core';
import * as toolPlanModule from '@toolwright/core/compile/tool-plan';

class NoteParams {
  @ToolParam({ description: 'The note', minLength: 1 }) text!: string;
  @ToolParam({ type: 'int', description: 'How urgent', min: 1, max: 5, required: false }) urgency?: number;
}

@Command({ name: 'note', description: 'Takes a note', params: NoteParams })
class NoteCommand {
  execute(params: NoteParams) {
    return `${params.text}:${params.urgency ?? 0}`;
  }
}

function schemaTool(registry: ToolRegistry, name: string, property: string): void {
  registry.registerJsonSchemaTool(
    {
      name,
      description: `The ${name} tool`,
      parameters: { type: 'object', properties: { [property]: { type: 'integer', minimum: 0 } }, required: [property] },
    },
    (params: Record<string, number>) => params[property]! * 2,
  );
}

function registryOfThree(): ToolRegistry {
  const registry = new ToolRegistry({ logger: silentLogger });
  registry.register(NoteCommand);
  schemaTool(registry, 'double', 'amount');
  schemaTool(registry, 'twice', 'count');
  return registry;
}

/** Plans compiled while `run` runs (`compileTool`, the one place a tool's plan is built). */
async function compiledDuring(run: () => unknown): Promise<number> {
  const spy = jest.spyOn(toolPlanModule, 'compileTool');
  try {
    await run();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

const calls = [
  { id: '1', name: 'note', arguments: '{"text":"buy milk","urgency":2}' },
  { id: '2', name: 'double', arguments: '{"amount":21}' },
  { id: '3', name: 'twice', arguments: '{"count":"4"}' },
  { id: '4', name: 'double', arguments: '{"amount":-1}' },
];

describe('compiling every tool before the first call (issue 26)', () => {
  it('by default compiles a tool on its first call (and never again on later calls)', async () => {
    const executor = new PersonaToolExecutor(registryOfThree(), { logger: silentLogger, telemetry: false });
    expect(await compiledDuring(() => executor.execute(calls[0]!))).toBeGreaterThan(0);
    expect(await compiledDuring(() => executor.execute({ ...calls[0]!, arguments: '{"text":"x"}' }))).toBe(0);
  });

  it("compile: 'registration' compiles the registered tools when the executor is built, and later ones as they are registered", async () => {
    const registry = registryOfThree();
    let executor: PersonaToolExecutor | undefined;
    expect(
      await compiledDuring(() => {
        executor = new PersonaToolExecutor(registry, {
          logger: silentLogger,
          telemetry: false,
          compile: 'registration',
        });
      }),
    ).toBeGreaterThan(0);
    const results = await Promise.all(calls.map((call) => executor!.execute(call)));
    expect(results.map((result) => (result.ok ? result.value : result.error.code))).toEqual([
      'buy milk:2',
      42,
      8,
      'INVALID_ARGUMENTS',
    ]);
    // The same calls again, through a fresh look: no plan is compiled on any call.
    expect(await compiledDuring(() => Promise.all(calls.map((call) => executor!.execute(call))))).toBe(0);

    // A tool registered after the executor was built is compiled by the registration itself.
    expect(await compiledDuring(() => schemaTool(registry, 'thrice', 'value'))).toBeGreaterThan(0);
    let late: unknown;
    expect(
      await compiledDuring(async () => {
        late = await executor!.execute({ id: '5', name: 'thrice', arguments: '{"value":5}' });
      }),
    ).toBe(0);
    expect(late).toMatchObject({ ok: true, value: 10 });
  });

  it('compileAll() compiles every registered tool once and says how many there are', async () => {
    const executor = new PersonaToolExecutor(registryOfThree(), { logger: silentLogger, telemetry: false });
    let count = 0;
    expect(
      await compiledDuring(() => {
        count = executor.compileAll();
      }),
    ).toBeGreaterThan(0);
    expect(count).toBe(3);
    expect(await compiledDuring(() => executor.compileAll())).toBe(0);
    expect(await compiledDuring(() => Promise.all(calls.map((call) => executor.execute(call))))).toBe(0);
  });

  it('gives the same results and transformations compiled ahead as compiled on the first call', async () => {
    const lazy = new PersonaToolExecutor(registryOfThree(), { logger: silentLogger, telemetry: false });
    const eager = new PersonaToolExecutor(registryOfThree(), {
      logger: silentLogger,
      telemetry: false,
      compile: 'registration',
    });
    const strip = (result: { durationMs: number }) => ({ ...result, durationMs: 0 });
    for (const call of calls) expect(strip(await eager.execute(call))).toEqual(strip(await lazy.execute(call)));
  });
});
