import {
  Command,
  FromContext,
  ToolParam,
  ToolRegistry,
  type CommandHandler,
  type ToolInvocationContext,
} from '@toolwright/core';
import { currentMcpRequest } from '@toolwright/mcp';

export class SaveNoteParams {
  @ToolParam({ description: 'The note text', minLength: 1 })
  text!: string;

  @ToolParam({ description: 'How important the note is', enum: ['low', 'high'], required: false })
  priority?: 'low' | 'high';

  @FromContext('session_id', { required: true })
  sessionId!: string;
}

@Command({
  name: 'save_note',
  title: 'Save a note',
  description: 'Save a note for this session.',
  params: SaveNoteParams,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
})
export class SaveNoteCommand implements CommandHandler<SaveNoteParams> {
  execute(params: SaveNoteParams, invocation: ToolInvocationContext) {
    return {
      saved: params.text,
      priority: params.priority ?? 'low',
      sessionId: params.sessionId,
      persona: invocation.context.persona?.name ?? null,
    };
  }
}

export class ListNotesParams {
  @ToolParam({ type: 'int', description: 'Most notes to return', min: 1, max: 10, required: false })
  limit?: number;
}

@Command({
  name: 'list_notes',
  description: 'List the notes.',
  params: ListNotesParams,
  annotations: { readOnlyHint: true },
})
export class ListNotesCommand implements CommandHandler<ListNotesParams> {
  execute(params: ListNotesParams) {
    return ['first', 'second', 'third'].slice(0, params.limit ?? 3);
  }
}

export class EmptyParams {}

@Command({ name: 'explode', description: 'Always fails.', params: EmptyParams })
export class ExplodeCommand implements CommandHandler<EmptyParams> {
  execute(): never {
    throw new Error('database password=hunter2 at /srv/app/db.ts:12');
  }
}

@Command({ name: 'report_progress', description: 'Reports progress and logs while it works.', params: EmptyParams })
export class ReportProgressCommand implements CommandHandler<EmptyParams> {
  async execute() {
    const request = currentMcpRequest();
    const sent = [];
    for (const step of [0, 50, 100]) {
      sent.push(await request!.progress(step, 100, `step ${step}`));
      await request!.log('info', `working: ${step}%`, 'report_progress');
    }
    await request!.log('debug', 'details nobody asked for');
    return { progressSent: sent };
  }
}

@Command({ name: 'wait_for_cancel', description: 'Waits until cancelled.', params: EmptyParams, timeoutMs: 10_000 })
export class WaitForCancelCommand implements CommandHandler<EmptyParams> {
  static cancelled: Array<{ reason: string }> = [];
  execute(_params: EmptyParams, invocation: ToolInvocationContext) {
    return new Promise((_resolve, reject) => {
      invocation.signal.addEventListener('abort', () => {
        WaitForCancelCommand.cancelled.push({ reason: String((invocation.signal.reason as Error)?.message) });
        const reason: unknown = invocation.signal.reason;
        reject(reason instanceof Error ? reason : new Error(String(reason), { cause: reason }));
      });
    });
  }
}

/** A registry with every kind of tool source: decorated classes, JSON Schema (with $defs) and the compact grammar. */
export function createTestRegistry(): ToolRegistry {
  const registry = ToolRegistry.from([
    SaveNoteCommand,
    ListNotesCommand,
    ExplodeCommand,
    ReportProgressCommand,
    WaitForCancelCommand,
  ]);
  registry.registerJsonSchemaTool(
    {
      name: 'set_address',
      description: 'Set an address (JSON Schema with $defs).',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
        properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
        additionalProperties: false,
      },
    },
    (params) => ({ stored: params }),
  );
  registry.registerCompact(
    {
      command_name: 'schedule',
      description: 'Schedule meetings (compact declaration).',
      parameters: [{ name: 'times', type: 'array<datetime>', required: true }],
    },
    (params: { times: string[] }) => `scheduled ${params.times.length}`,
  );
  return registry;
}
