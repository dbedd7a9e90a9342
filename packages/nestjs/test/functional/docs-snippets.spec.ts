import 'reflect-metadata';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { Test } from '@nestjs/testing';
import { PersonaToolExecutor } from '@toolwright/core';
import { AuditedToolwrightModule } from '../../../../docs/snippets/nestjs/audit-interceptor';
import { testAddNote } from '../../../../docs/snippets/nestjs/testing';
import { AddNoteCommand } from '../../../../examples/nest-app/src/commands/add-note.command';
import { NotesService } from '../../../../examples/nest-app/src/services';

const ROOT = resolve(__dirname, '..', '..', '..', '..');

/** Every TypeScript file under a folder (the blocks' sources: compiled by `npm run typecheck` and the build). */
function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(folder, file));
}

function trimmedLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

describe('docs/nestjs.md', () => {
  const page = readFileSync(join(ROOT, 'docs', 'nestjs.md'), 'utf8');
  const matches = [...page.matchAll(/```ts\n([\s\S]*?)```/g)];
  const blocks = matches.map((match) => trimmedLines(match[1]!));
  const files = [...sourceFiles('examples/nest-app/src'), ...sourceFiles('docs/snippets/nestjs')];
  const sources = new Map(files.map((file) => [file, trimmedLines(readFileSync(join(ROOT, file), 'utf8'))]));

  it('shows only whole files of compiled code, each with its imports, and names the file it shows', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(9);
    for (const [index, block] of blocks.entries()) {
      const file = [...sources].find(([, lines]) => lines.join('\n') === block.join('\n'))?.[0];
      expect({ block: block.slice(0, 3).join('\n'), file: file ?? 'no source file has exactly these lines' }).toEqual({
        block: block.slice(0, 3).join('\n'),
        file: expect.stringMatching(/\.ts$/),
      });
      expect(block[0]).toMatch(/^import /);
      // The prose just before the block names the file.
      const start = matches[index]!.index;
      expect(page.slice(Math.max(0, start - 400), start)).toContain(relative(ROOT, join(ROOT, file!)));
    }
  });

  it('points ProviderTools at the package that exports it, and installs what the snippets import', () => {
    expect(page).not.toMatch(/ProviderTools` \(from `@toolwright\/providers/);
    expect(page).toContain('`ProviderTools` (from `@toolwright/nestjs`');
    const install = /npm install ([^\n]+)/.exec(page)![1]!.split(' ');
    const imported = new Set(
      blocks
        .flat()
        .map((line) => /from '(@toolwright\/[a-z-]+|[a-z-]+)/.exec(line)?.[1])
        .filter((name): name is string => name !== undefined && !name.startsWith('@nestjs') && name !== 'node'),
    );
    for (const name of imported) expect({ name, installed: install.includes(name) }).toEqual({ name, installed: true });
  });

  it('runs the testing snippet as written', async () => {
    await testAddNote();
  });

  it('runs the per-call hook snippet: the audit refuses add_note to another persona with PERMISSION_DENIED', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [AuditedToolwrightModule],
      providers: [NotesService, AddNoteCommand],
    }).compile();
    await moduleRef.init();
    const executor = moduleRef.get(PersonaToolExecutor);
    const call = { id: 'c1', name: 'add_note', arguments: '{"text": "audited"}' };
    expect(await executor.execute(call, { persona: { name: 'note-taker' } })).toMatchObject({ ok: true });
    expect(await executor.execute(call, { persona: { name: 'visitor' } })).toMatchObject({
      ok: false,
      error: { code: 'PERMISSION_DENIED', message: expect.stringContaining('Not allowed for this persona.') },
    });
    expect(moduleRef.get(NotesService).all()).toEqual([{ text: 'audited', sessionId: undefined }]);
    await moduleRef.close();
  });
});
