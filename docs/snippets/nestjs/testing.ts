import { Test } from '@nestjs/testing';
import { PersonaToolExecutor, silentLogger } from '@toolwright/core';
import { ToolwrightModule } from '@toolwright/nestjs';
import { AddNoteCommand } from '../../../examples/nest-app/src/commands/add-note.command';
import { NotesService } from '../../../examples/nest-app/src/services';

export async function testAddNote(): Promise<void> {
  const fakeNotes = { add: () => 41 };
  const moduleRef = await Test.createTestingModule({
    imports: [ToolwrightModule.forRoot({ logger: silentLogger })],
    providers: [NotesService, AddNoteCommand],
  })
    .overrideProvider(NotesService)
    .useValue(fakeNotes) // optional: a fake or a real dependency
    .compile();
  await moduleRef.init(); // discovery runs at module init

  const executor = moduleRef.get(PersonaToolExecutor);
  const result = await executor.execute(
    { id: 'c1', name: 'add_note', arguments: '{"text": "buy milk"}' },
    { sessionId: 's1' },
  );
  expect(result).toMatchObject({ ok: true, value: { saved: 'buy milk', total: 41 } });
  await moduleRef.close();
}
