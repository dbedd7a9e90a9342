import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import * as toolPlanModule from '@toolwright/core/compile/tool-plan';
import { WARM_UP_CALLS, WARM_UP_TOOL } from '@toolwright/core/execution/warm-up';
import { Command, PersonaToolExecutor, ToolParam, ToolRegistry, type Logger, type ToolCall } from '@toolwright/core';
import { ToolwrightModule } from '@toolwright/nestjs';

/**
 * The Nest module builds every tool at startup by default (`compile: 'registration'`, docs/nestjs.md): the plans of
 * the commands it discovers, as it registers them, and the warm-up of the shared call path (issue 26), so that the
 * first request costs what later ones do. A real Nest app, its own jest module registry (the warm-up runs once per
 * process, so this file's first app is the one that warms).
 */

const handled: string[] = [];

class GreetParams {
  @ToolParam({ description: 'Who to greet', minLength: 1 }) name!: string;
}

@Injectable()
@Command({ name: 'greet', description: 'Greets someone', params: GreetParams })
class Greet {
  execute(params: GreetParams) {
    handled.push(params.name);
    return `hello ${params.name}`;
  }
}

function recordingLogger(records: unknown[]): Logger {
  const record = (level: string) => (message: string) => records.push({ level, message });
  return {
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
    isLevelEnabled: () => true,
  };
}

async function app(executor?: { compile: 'first-call' }) {
  const records: unknown[] = [];
  @Module({ providers: [Greet] })
  class FeatureModule {}
  const moduleRef = await Test.createTestingModule({
    imports: [ToolwrightModule.forRoot({ logger: recordingLogger(records), executor }), FeatureModule],
  }).compile();
  return { moduleRef, records };
}

describe('ToolwrightModule builds every tool at startup by default (issue 26)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('compiles the discovered commands and warms the call path during bootstrap; no request compiles', async () => {
    const execute = jest.spyOn(PersonaToolExecutor.prototype, 'execute');
    const compileAll = jest.spyOn(PersonaToolExecutor.prototype, 'compileAll');
    const compileTool = jest.spyOn(toolPlanModule, 'compileTool');
    const { moduleRef, records } = await app();
    await moduleRef.init();
    const executor = moduleRef.get(PersonaToolExecutor);

    // Bootstrap: compileAll on the app's executor, the warm-up's calls on a private one, the app's tool compiled.
    expect(compileAll.mock.contexts).toEqual([executor]);
    expect(execute.mock.calls.map(([call]) => call)).toEqual(WARM_UP_CALLS);
    expect(execute.mock.contexts.every((other) => other !== executor)).toBe(true);
    expect(compileTool.mock.calls.map(([entry]) => entry.definition.name).sort()).toEqual(['greet', WARM_UP_TOOL]);
    // ...invisibly: no handler ran, nothing logged, nothing counted, nothing registered but the app's command.
    expect(handled).toEqual([]);
    expect(records).toEqual([]);
    expect(executor.stats.snapshot()).toEqual([]);
    expect(
      moduleRef
        .get(ToolRegistry)
        .list()
        .map((tool) => tool.name),
    ).toEqual(['greet']);

    // The first request compiles nothing and answers as ever.
    compileTool.mockClear();
    const call: ToolCall = { id: 'c1', name: 'greet', arguments: '{"Name":"Ada"}' };
    const result = await executor.execute(call);
    expect(result).toMatchObject({
      ok: true,
      value: 'hello Ada',
      transformations: [{ path: 'name', rule: 'key-case', from: 'Name', to: 'name' }],
    });
    expect(compileTool).not.toHaveBeenCalled();
    expect(handled).toEqual(['Ada']);
    await moduleRef.close();
  });

  it("executor: { compile: 'first-call' } turns it off: a tool is compiled on its first call", async () => {
    const compileTool = jest.spyOn(toolPlanModule, 'compileTool');
    const { moduleRef } = await app({ compile: 'first-call' });
    await moduleRef.init();
    expect(compileTool).not.toHaveBeenCalled();
    await moduleRef.get(PersonaToolExecutor).execute({ id: 'c2', name: 'greet', arguments: '{"name":"Bob"}' });
    expect(compileTool.mock.calls.map(([entry]) => entry.definition.name)).toEqual(['greet']);
    await moduleRef.close();
  });
});
