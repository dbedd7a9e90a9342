import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { standardSchemaWithContext, standardSchemas } from '../../../../docs/snippets/interop';
import { importLangChainTool } from '../../../../docs/snippets/interop-langchain-tool';

const ROOT = resolve(__dirname, '..', '..', '..', '..');

/** The ```ts blocks of docs/interop.md, each one a line-for-line excerpt of code CI compiles and runs. */
const SOURCES = [
  'examples/interop/src/ai-sdk.ts',
  'examples/interop/src/langchain.ts',
  'examples/interop/src/openai-agents.ts',
  'examples/interop/src/meeting.ts',
  'docs/snippets/interop-langchain-tool.ts',
  'docs/snippets/interop.ts',
];

/** The files the page shows whole (every block but the Standard Schema section's excerpts). */
const WHOLE_FILES = SOURCES.slice(0, 5);

function trimmedLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function containsInOrder(haystack: readonly string[], needle: readonly string[]): boolean {
  for (let start = 0; start + needle.length <= haystack.length; start++) {
    if (needle.every((line, offset) => haystack[start + offset] === line)) return true;
  }
  return false;
}

describe('docs/interop.md', () => {
  it('runs the Standard Schema context snippet as written: the session is on the value, not in its JSON', async () => {
    const { saved, saveNote } = await standardSchemaWithContext();
    if (saved.issues !== undefined) throw new Error(JSON.stringify(saved.issues));
    expect(saved.value.sessionId).toBe('session-from-your-auth');
    expect(JSON.stringify(saved.value)).toBe('{"text":"buy milk"}');
    expect(saveNote.inputSchema).toBeDefined();
  });

  const page = readFileSync(join(ROOT, 'docs', 'interop.md'), 'utf8');
  const blocks = [...page.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => trimmedLines(match[1]!));
  const sources = SOURCES.map((file) => trimmedLines(readFileSync(join(ROOT, file), 'utf8')));

  it('has one example per framework plus the import, each copied from compiled and tested code', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    for (const block of blocks) {
      expect({ block: block.join('\n'), found: sources.some((source) => containsInOrder(source, block)) }).toEqual({
        block: block.join('\n'),
        found: true,
      });
    }
  });

  it('shows each example as a complete file, imports included, and says where it lives', () => {
    const whole = WHOLE_FILES.map((file) => trimmedLines(readFileSync(join(ROOT, file), 'utf8')).join('\n'));
    for (const [index, file] of WHOLE_FILES.entries()) {
      expect({ file, shown: blocks.some((block) => block.join('\n') === whole[index]) }).toEqual({ file, shown: true });
      expect(page).toContain(`\`${file}\``);
    }
  });

  it('runs the LangChain import snippet as written', async () => {
    const { result, anthropicTools } = await importLangChainTool();
    expect(result).toMatchObject({ ok: true, value: 'desk lamp at 40%' });
    expect(result.transformations.map((change) => change.rule).sort()).toEqual([
      'dropped-context-field',
      'key-case',
      'string-to-integer',
    ]);
    expect(JSON.stringify(anthropicTools)).toContain('device_name');
    expect(JSON.stringify(anthropicTools)).not.toContain('session_id');
  });

  it('runs the Standard Schema snippets as written', async () => {
    const { checked, setLight, result } = await standardSchemas();
    expect(checked).toEqual({ value: expect.objectContaining({ deviceName: 'desk lamp', level: 40 }) });
    expect(setLight.inputSchema).toBeDefined();
    expect(result).toMatchObject({ ok: true, value: 'desk lamp at 40%' });
    expect(result.transformations.map((change) => change.rule).sort()).toEqual(['key-case', 'string-to-integer']);
  });
});
