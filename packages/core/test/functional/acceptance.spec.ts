import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { container } from 'tsyringe';
import { Command, PersonaToolExecutor, silentLogger, ToolParam, ToolRegistry, type ToolResult } from '@toolwright/core';

const repositoryRoot = path.resolve(__dirname, '../../../..');

function expectAcceptance(result: ToolResult, bad: ToolResult): void {
  expect(result.ok).toBe(true);
  expect(result.ok && result.value).toEqual({ number: 5 });
  expect(result.transformations[0]!.path).toBe('number');
  expect(bad.ok).toBe(false);
  expect(!bad.ok && bad.error.code).toBe('INVALID_ARGUMENTS');
  expect(!bad.ok && typeof bad.error.message).toBe('string');
  expect(!bad.ok && bad.error.message).toMatch(/"number" must be an integer( >= 0)?, but received "five"/);
}

describe('issue 3 acceptance snippet', () => {
  it('works as written from plain Node, against the built package (no ts-node)', () => {
    const entry = path.join(repositoryRoot, 'packages/core/dist/index.js');
    if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` (npm test builds first).`);
    const output = execFileSync(process.execPath, [path.join(__dirname, '../fixtures/acceptance-snippet.mjs')], {
      cwd: repositoryRoot,
      encoding: 'utf8',
    });
    const line = output.split('\n').find((candidate) => candidate.startsWith('RESULT '));
    expect(line).toBeDefined();
    const { result, bad } = JSON.parse(line!.slice('RESULT '.length)) as { result: ToolResult; bad: ToolResult };
    expectAcceptance(result, bad);
  });

  it('works with a decorated command through a tsyringe container', async () => {
    class FactorialParams {
      @ToolParam({ type: 'int', description: 'The number', min: 0 }) number!: number;
    }
    @Command({ name: 'math.factorial', description: 'Factorial of a number', params: FactorialParams })
    class FactorialCommand {
      execute(params: FactorialParams) {
        return { number: params.number };
      }
    }
    const child = container.createChildContainer();
    child.registerInstance(ToolRegistry, ToolRegistry.from([FactorialCommand], { logger: silentLogger }));
    const executor = child.resolve(PersonaToolExecutor);
    const result = await executor.execute(
      { id: 'c1', name: 'math.factorial', arguments: '{"number": "5"}' },
      { sessionId: 's1' },
    );
    const bad = await executor.execute(
      { id: 'c2', name: 'math.factorial', arguments: '{"number": "five"}' },
      { sessionId: 's1' },
    );
    expectAcceptance(result, bad);
  });
});
