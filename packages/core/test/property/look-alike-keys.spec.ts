import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import {
  CONTEXT_KEY_PROPERTIES,
  PersonaToolExecutor,
  silentLogger,
  ToolRegistry,
  type ToolCall,
} from '@toolwright/core';
import { RecordingLogger } from '../support/recording-logger';

/**
 * Issue 28, failures 3 and 4: a key that differs from a context name only by invisible code points (Unicode's whole
 * Default_Ignorable_Code_Point set and the controls), by confusable letters (UTS #39) or by separators (`/ : ·`) is a
 * security event, in object arguments, in arguments sent as a JSON string and inside a JSON-string value the pipeline
 * reads as an object; and none of them sets context.
 */

const CONTEXT_NAMES = Object.keys(CONTEXT_KEY_PROPERTIES);

interface Seen {
  readonly sessionId: string | null;
  readonly params: Record<string, unknown>;
}

function executorWithLog(): { executor: PersonaToolExecutor; logger: RecordingLogger } {
  const registry = new ToolRegistry({ logger: silentLogger });
  registry.registerJsonSchemaTool(
    {
      name: 'save',
      description: 'Save a note',
      parameters: {
        type: 'object',
        properties: { note: { type: 'string' }, metadata: { type: 'object' } },
        additionalProperties: true,
      },
    },
    async (params, invocation): Promise<Seen> => ({ params, sessionId: invocation.context.sessionId ?? null }),
  );
  const logger = new RecordingLogger();
  return { executor: new PersonaToolExecutor(registry, { logger }), logger };
}

/** The three ways a spoofed key reaches the executor. */
const CARRIERS = {
  'an object': (key: string): ToolCall['arguments'] => ({ note: 'n', [key]: 'attacker' }),
  'a JSON string': (key: string): ToolCall['arguments'] => JSON.stringify({ note: 'n', [key]: 'attacker' }),
  'a JSON-string value': (key: string): ToolCall['arguments'] => ({
    note: 'n',
    metadata: JSON.stringify({ [key]: 'attacker' }),
  }),
} as const;
type Carrier = keyof typeof CARRIERS;

/**
 * Runs one call carrying `key`; returns what failed (empty when the key raised exactly one look-alike event naming
 * `contextKey`, and the handler saw the trusted session and no context set by the model).
 */
async function spoofProblems(
  setup: { executor: PersonaToolExecutor; logger: RecordingLogger },
  carrier: Carrier,
  key: string,
  contextKey: string,
): Promise<string[]> {
  setup.logger.entries.length = 0;
  const result = await setup.executor.execute(
    { id: 'c1', name: 'save', arguments: CARRIERS[carrier](key) },
    { sessionId: 'trusted' },
  );
  const problems: string[] = [];
  if (!result.ok) return [`refused: ${result.error.message}`];
  const seen = result.value as Seen;
  if (seen.sessionId !== 'trusted') problems.push(`session ${String(seen.sessionId)}`);
  const events = setup.logger.entries.filter((entry) => entry.level === 'warn');
  if (events.length !== 1) problems.push(`${events.length} events`);
  // A look-alike; or, for white space the key matching removes (tab, LF, U+FEFF), the context field itself (dropped).
  const event = events[0];
  const named =
    event?.details?.['kind'] === 'look-alike-context-key'
      ? event.message.includes(`a look-alike of the context field "${contextKey}"`)
      : event?.details?.['kind'] === 'context-override' &&
        event.message.includes(`trusted context field "${contextKey}"`);
  if (!named) problems.push(`event ${JSON.stringify(event)}`);
  return problems;
}

function codePointName(key: string): string {
  return [...key].map((character) => `U+${character.codePointAt(0)!.toString(16).toUpperCase()}`).join(' ');
}

/** Every code point with the Default_Ignorable_Code_Point property, from the engine's Unicode data. */
function defaultIgnorables(): string[] {
  const all: string[] = [];
  for (let codePoint = 0; codePoint <= 0x10ffff; codePoint++) {
    if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
    const character = String.fromCodePoint(codePoint);
    if (/\p{Default_Ignorable_Code_Point}/u.test(character)) all.push(character);
  }
  return all;
}

describe('look-alike context keys (issue 28, failures 3 and 4)', () => {
  it('the invisible set is Unicode data: it covers tags, variation selectors, musical formatting and U+0000', () => {
    const ignorables = defaultIgnorables();
    expect(ignorables.length).toBeGreaterThan(4_000);
    for (const codePoint of [0xe0020, 0xe0001, 0xe007f, 0xe0100, 0xe01ef, 0x1d173, 0x1d17a, 0x200b, 0x00ad, 0x3164])
      expect(ignorables).toContain(String.fromCodePoint(codePoint));
  });

  it.each(Object.keys(CARRIERS) as Carrier[])(
    'every Default_Ignorable code point and every control inside "session_id", in %s, is an event and sets nothing',
    async (carrier) => {
      const setup = executorWithLog();
      const controls = Array.from({ length: 0x20 }, (_, index) => String.fromCharCode(index)).concat(
        Array.from({ length: 0x21 }, (_, index) => String.fromCharCode(0x7f + index)),
      );
      const failures: string[] = [];
      for (const invisible of [...defaultIgnorables(), ...controls]) {
        const key = `sess${invisible}ion_id`;
        const problems = await spoofProblems(setup, carrier, key, 'session_id');
        if (problems.length > 0) failures.push(`${codePointName(invisible)}: ${problems.join(', ')}`);
      }
      expect(failures).toEqual([]);
      expect(setup.executor.stats.securityEvents).toBe(defaultIgnorables().length + 65);
    },
    120_000,
  );

  /** Letters of context names with every non-ASCII code point confusables.txt maps to them. */
  const confusablePrototypes = JSON.parse(readFileSync(require.resolve('unhomoglyph/data.json'), 'utf8')) as Record<
    string,
    string
  >;
  const CONFUSABLES: ReadonlyArray<readonly [string, string]> = Object.entries(confusablePrototypes).filter(
    ([source, prototype]) => /^[a-z_]$/.test(prototype) && /[^\u0000-\u007f]/.test(source),
  );

  it.each(Object.keys(CARRIERS) as Carrier[])(
    'a context name with letters swapped for their UTS #39 confusables, in %s, is an event and sets nothing',
    async (carrier) => {
      expect(CONFUSABLES.length).toBeGreaterThan(400);
      const setup = executorWithLog();
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...CONTEXT_NAMES),
          fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
          fc.nat(),
          async (name, positions, pick) => {
            const characters = [...name];
            for (const position of positions) {
              const index = position % characters.length;
              const swaps = CONFUSABLES.filter(([, prototype]) => prototype === characters[index]);
              if (swaps.length > 0) characters[index] = swaps[pick % swaps.length]![0];
            }
            const key = characters.join('');
            fc.pre(key !== name);
            expect(await spoofProblems(setup, carrier, key, name)).toEqual([]);
          },
        ),
        { seed: 20261127, numRuns: 300 },
      );
    },
    120_000,
  );

  const NAMED = [
    ['session/id', 'session_id'],
    ['session:id', 'session_id'],
    ['session·id', 'session_id'],
    ['ｓｅｓｓｉｏｎ＿ｉｄ', 'session_id'],
    ['sess\u200bion_id', 'session_id'],
    ['session\u{e0020}_id', 'session_id'],
    ['session\u{e0100}_id', 'session_id'],
    ['session\u{1d173}_id', 'session_id'],
    ['session\u0000_id', 'session_id'],
    ['SESSІON_ID', 'session_id'],
    ['job: id', 'job_id'],
    ['flow/step/id', 'flow_step_id'],
    ['ѕоurcе_url', 'source_url'],
  ] as const;

  it.each(
    NAMED.flatMap(([key, name]) =>
      (Object.keys(CARRIERS) as Carrier[]).map((carrier) => [key, carrier, name] as const),
    ),
  )('%j in %s is an event for %s and sets nothing', async (key, carrier, name) => {
    expect(await spoofProblems(executorWithLog(), carrier, key, name)).toEqual([]);
  });

  it('plain keys that are other words raise nothing, however they are sent', async () => {
    const setup = executorWithLog();
    for (const carrier of Object.keys(CARRIERS) as Carrier[]) {
      for (const key of ['sessions', 'session', 'id', 'job', 'personas', 'café', 'image-urls', 'source']) {
        setup.logger.entries.length = 0;
        const result = await setup.executor.execute({ id: 'c1', name: 'save', arguments: CARRIERS[carrier](key) });
        expect(result.ok).toBe(true);
        expect(setup.logger.messages('warn')).toEqual([]);
      }
    }
  });
});
