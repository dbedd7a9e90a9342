// An existing LangChain tool in a toolwright registry: docs/interop.md shows this file whole. CI type-checks it
// (tsconfig.test.json) and packages/interop/test/functional/docs-snippets.spec.ts runs it.
import 'reflect-metadata';
import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import { PersonaToolExecutor, ToolRegistry, silentLogger } from '@toolwright/core';
import { adaptAll } from '@toolwright/providers';
import { registerLangChainTool } from '@toolwright/interop/langchain';

export async function importLangChainTool() {
  const setLight = tool(async ({ device_name, level }) => `${device_name} at ${level}%`, {
    name: 'set_light',
    description: 'Set the brightness of a light.',
    schema: z.object({ device_name: z.string(), level: z.number().int().min(0).max(100), session_id: z.string() }),
  });

  const registry = new ToolRegistry();
  registerLangChainTool(registry, setLight); // `session_id` is a context field: hidden from the model, filled by toolwright
  const executor = new PersonaToolExecutor(registry, { logger: silentLogger });

  const result = await executor.execute(
    {
      id: 'call_1',
      name: 'set_light',
      arguments: '{"deviceName": "desk lamp", "level": "40", "session_id": "forged"}',
    },
    { sessionId: 'session-from-your-auth' },
  );
  // result.value === 'desk lamp at 40%'; result.transformations: key-case, string-to-integer, dropped-context-field
  const anthropicTools = adaptAll(registry, 'anthropic'); // and every other provider's format
  return { result, anthropicTools };
}
