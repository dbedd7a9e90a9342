// The Standard Schema snippets of docs/interop.md (the other blocks are whole files: examples/interop/src and
// docs/snippets/interop-langchain-tool.ts). CI type-checks this file (tsconfig.test.json) and
// packages/interop/test/functional/docs-snippets.spec.ts runs it.
import 'reflect-metadata';
import { z } from 'zod';
import { tool as aiTool } from 'ai';
import {
  FromContext,
  PersonaToolExecutor,
  ToolParam,
  ToolRegistry,
  silentLogger,
  toStandardSchema,
} from '@toolwright/core';

export async function standardSchemaWithContext() {
  // --- Trusted context in a Standard Schema ---------------------------------------------------------------------
  class SaveNoteParams {
    @ToolParam({ description: 'The note' }) text!: string;
    @FromContext('session_id') sessionId!: string; // trusted: not in the JSON Schema, never taken from the input
  }

  // Built per request, with the caller's trusted context.
  const saveNoteInput = toStandardSchema(SaveNoteParams, { context: { sessionId: 'session-from-your-auth' } });
  const saved = await saveNoteInput['~standard'].validate({ text: 'buy milk', session_id: 'forged' });
  // saved.value.sessionId === 'session-from-your-auth' (the forged one dropped), but JSON.stringify(saved.value) is
  // '{"text":"buy milk"}': what the AI SDK stores as the call's input, and sends the model on the next step

  const saveNote = aiTool({
    description: 'Save a note for the user.',
    inputSchema: saveNoteInput,
    execute: (params) => `saved for ${params.sessionId}`,
  });
  // --- end ------------------------------------------------------------------------------------------------------
  return { saved, saveNote };
}

export async function standardSchemas() {
  // --- A toolwright DTO as a Standard Schema ----------------------------------------------------------------------
  class SetLightParams {
    @ToolParam({ description: 'The device, as named in the controller' }) deviceName!: string;
    @ToolParam({ type: 'int', min: 0, max: 100 }) level!: number;
  }

  const setLightInput = toStandardSchema(SetLightParams); // { '~standard': { version: 1, vendor: 'toolwright', validate, jsonSchema } }
  const checked = await setLightInput['~standard'].validate({ device_name: 'desk lamp', level: '40' });
  // checked.value: a SetLightParams { deviceName: 'desk lamp', level: 40 }; invalid input: checked.issues (path, message)

  const setLight = aiTool({
    description: 'Set the brightness of a light.',
    inputSchema: setLightInput, // the AI SDK lists its JSON Schema and runs its validate on each call
    execute: (params) => `${params.deviceName} at ${params.level}%`,
  });

  // --- A zod (valibot, arktype) schema as a toolwright tool -------------------------------------------------------
  const registry = new ToolRegistry();
  registry.registerStandardSchemaTool(
    {
      name: 'set_light',
      description: 'Set the brightness of a light.',
      schema: z.object({ deviceName: z.string(), level: z.number().int().min(0).max(100) }),
    },
    (params) => `${params.deviceName} at ${params.level}%`,
  );
  const executor = new PersonaToolExecutor(registry, { logger: silentLogger });
  const result = await executor.execute({
    id: 'call_1',
    name: 'set_light',
    arguments: '{"device_name": "desk lamp", "level": "40"}',
  });
  // result.value === 'desk lamp at 40%'; result.transformations: key-case, string-to-integer
  return { checked, setLight, result };
}
