import 'reflect-metadata';
import {
  Command,
  FromContext,
  PersonaToolExecutor,
  silentLogger,
  ToolParam,
  ToolRegistry,
  type ToolResult,
} from '@toolwright/core';

/**
 * The accepted call's path (issue 26, ADR 0034 path50): the parse step's direct answer (JSON.parse's value, accepted by
 * the canonical check, nothing recorded) reaches the handler, the result and the dry run as the record did; every result
 * has a list of transformations of its own; what steps 3-5 record is reported by every outcome, including the failures
 * that come after it (a thrown step 5, a rejected cross-field check).
 */

class NoteParams {
  @ToolParam({ description: 'The text' }) text!: string;
  @FromContext('session_id', { required: true }) sessionId!: string;
}

@Command({ name: 'note', description: 'Write a note', params: NoteParams })
class NoteCommand {
  execute(params: NoteParams) {
    return `${params.sessionId}: ${params.text}`;
  }
}

function registry(): ToolRegistry {
  const tools = ToolRegistry.from([NoteCommand], { logger: silentLogger });
  tools.registerJsonSchemaTool(
    {
      name: 'search',
      parameters: {
        type: 'object',
        properties: { fromPage: { type: 'integer' }, toPage: { type: 'integer' } },
        additionalProperties: false,
      },
    },
    (params: { fromPage?: number; toPage?: number }) => params,
    {
      validate: async (params: { fromPage?: number; toPage?: number }) =>
        params.fromPage !== undefined && params.toPage !== undefined && params.toPage < params.fromPage
          ? [{ path: 'toPage', message: '"toPage" must be at least "fromPage".' }]
          : undefined,
    },
  );
  tools.registerJsonSchemaTool(
    { name: 'echo', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } },
    (params: { q: string }) => params.q,
  );
  return tools;
}

const rules = (result: { transformations: ToolResult['transformations'] }) =>
  result.transformations.map((transformation) => `${transformation.path} ${transformation.rule}`);

describe('the accepted call path', () => {
  const executor = new PersonaToolExecutor(registry(), { logger: silentLogger });

  it('runs a directly accepted call, with a list of transformations of its own in each result and dry run', async () => {
    const first = await executor.execute({ id: 'c1', name: 'echo', arguments: '{"q":"cats"}' });
    const second = await executor.execute({ id: 'c2', name: 'echo', arguments: '{"q":"dogs"}' });
    expect(first).toMatchObject({ ok: true, value: 'cats', transformations: [] });
    expect(second).toMatchObject({ ok: true, value: 'dogs', transformations: [] });
    // A consumer may change a result's list without touching another call's.
    expect(first.transformations).not.toBe(second.transformations);
    (first.transformations as unknown[]).push('kept by the consumer');
    expect(second.transformations).toEqual([]);
    const dryRun = await executor.prepare({ id: 'c3', name: 'echo', arguments: '{"q":"birds"}' });
    expect(dryRun).toMatchObject({ ok: true, params: { q: 'birds' }, transformations: [] });
  });

  it('gives every call that records something its own list, which never reaches the next call', async () => {
    const renamed = await executor.execute({ id: 'c1', name: 'echo', arguments: '{"Q":"cats"}' });
    const resolved = await executor.execute({ id: 'c2', name: 'ECHO', arguments: '{"q":"cats"}' });
    const plain = await executor.execute({ id: 'c3', name: 'echo', arguments: '{"q":"cats"}' });
    expect(renamed.ok).toBe(true);
    expect(rules(renamed)).toEqual(['q key-case']);
    expect(resolved.ok).toBe(true);
    expect(rules(resolved)).toEqual([' tool-name-case']);
    expect(plain.transformations).toEqual([]);
    // What the call itself brings (a call checked again after an approval) is copied, never written into.
    const brought = Object.freeze([{ path: 'q', rule: 'key-case', from: 'Q', to: 'q' }]);
    const again = await executor.execute({
      id: 'c4',
      name: 'echo',
      arguments: '{"Q":"cats"}',
      transformations: brought,
    });
    expect(rules(again)).toEqual(['q key-case', 'q key-case']);
    expect(brought).toHaveLength(1);
  });

  it('reports what the parse step recorded when step 5 then fails (a missing context field)', async () => {
    const result = await executor.execute({
      id: 'c1',
      name: 'note',
      arguments: JSON.stringify(JSON.stringify({ text: 'hello' })),
    });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('HANDLER_ERROR');
    expect(rules(result)).toEqual([' double-encoded-json']);
    const injected = await executor.execute(
      { id: 'c2', name: 'note', arguments: '{"text":"hello"}' },
      { sessionId: 's-1' },
    );
    expect(injected).toMatchObject({ ok: true, value: 's-1: hello' });
    expect(rules(injected)).toEqual(
      rules(await executor.prepare({ id: 'c3', name: 'note', arguments: '{"text":"hello"}' }, { sessionId: 's-1' })),
    );
  });

  it('reports what steps 3-4 recorded when the asynchronous cross-field check refuses the call', async () => {
    const refused = await executor.execute({ id: 'c1', name: 'search', arguments: '{"from_page":"10","toPage":2}' });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error.code).toBe('INVALID_ARGUMENTS');
    expect(rules(refused)).toEqual(['fromPage key-case', 'fromPage string-to-integer']);
  });
});
