/**
 * The approval outcomes (docs/approval.md) as the model receives them through `toToolResultMessage`: the pending call
 * and the denial in plain words, with their codes, on an error channel (Anthropic) and as an error object (OpenAI).
 */
import 'reflect-metadata';
import { PersonaToolExecutor, silentLogger, ToolRegistry, type ToolResult } from '@toolwright/core';
import * as anthropic from '@toolwright/providers/anthropic';
import * as openai from '@toolwright/providers/openai';

async function outcomes(): Promise<{ pending: ToolResult; denied: ToolResult }> {
  const registry = new ToolRegistry({ logger: silentLogger });
  registry.registerJsonSchemaTool(
    {
      name: 'delete_file',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
    () => 'deleted',
    { approval: true },
  );
  const executor = new PersonaToolExecutor(registry, { logger: silentLogger });
  const pending = await executor.execute({ id: 'toolu_1', name: 'delete_file', arguments: '{"path": "/srv/a"}' });
  if (pending.ok || pending.pendingApproval === undefined) throw new Error('expected a pending approval');
  const denied = await executor.resolveApproval(pending.pendingApproval.id, {
    approved: false,
    by: 'ana',
    reason: 'that file is still in use',
  });
  return { pending, denied };
}

describe('approval outcomes rendered for the model', () => {
  it('OpenAI: an error object with the code and a message the model can act on', async () => {
    const { pending, denied } = await outcomes();
    expect(JSON.parse(openai.toToolResultMessage(pending).content)).toEqual({
      error: {
        code: 'APPROVAL_REQUIRED',
        message:
          'The call to "delete_file" is valid and waits for a person\'s approval. It has not run yet; do not call it again. Tell the user it awaits approval.',
        retryable: false,
      },
    });
    expect(JSON.parse(openai.toToolResultMessage(denied).content)).toEqual({
      error: {
        code: 'APPROVAL_DENIED',
        message:
          'ana declined the call to "delete_file": that file is still in use. It did not run. Do not call it again with the same arguments; answer the user or ask them what to do instead.',
        retryable: false,
      },
    });
  });

  it('Anthropic: the message on the is_error channel', async () => {
    const { denied } = await outcomes();
    expect(anthropic.toToolResultMessage(denied).content[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      is_error: true,
      content: expect.stringContaining('ana declined the call to "delete_file": that file is still in use'),
    });
  });
});
