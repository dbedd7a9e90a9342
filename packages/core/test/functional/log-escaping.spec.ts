import 'reflect-metadata';
import { Console } from 'node:console';
import { PassThrough, Writable } from 'node:stream';
import pino from 'pino';
import {
  createConsoleLogger,
  createStderrLogger,
  PersonaToolExecutor,
  pinoLogger,
  silentLogger,
  ToolRegistry,
  type Logger,
  type ToolCall,
} from '@toolwright/core';
import { escapeLogText } from '@toolwright/core/internal';

/**
 * Issue 28, failure 5: U+2028, U+2029 and U+0085 in call ids, keys and values were written raw into log lines, so a
 * viewer that splits on them showed a forged line. Every call below carries them (and CR, VT, FF, LF) where a log line
 * repeats what the model sent; each logger adapter writes through the real executor at debug level.
 */

const TERMINATORS = ['\u2028', '\u2029', '\u0085', '\r', '\u000b', '\u000c', '\n'];
const FORGED = TERMINATORS.map((terminator) => `${terminator}[toolwright] ERROR forged`).join('');
/** Any raw line terminator but the LF that ends each line, or any other control character. */
const RAW = /[\u2028\u2029\u0085\r\u000b\u000c\u0000-\u0009\u000e-\u001f\u007f-\u009f]/;

function registry(): ToolRegistry {
  const tools = new ToolRegistry({ logger: silentLogger });
  tools.registerJsonSchemaTool(
    {
      name: 'save',
      description: 'Save a note',
      parameters: {
        type: 'object',
        properties: { note: { type: 'string' }, count: { type: 'integer' }, metadata: { type: 'object' } },
        required: ['note'],
        additionalProperties: false,
      },
    },
    async (params) => {
      if (params['note'] === 'fail') throw new Error(`handler failed${FORGED}`);
      return 'saved';
    },
  );
  return tools;
}

/** Calls whose id, tool name, keys and values hold every line terminator; each logs at least one event. */
const CALLS: ToolCall[] = [
  { id: `ok${FORGED}`, name: 'save', arguments: { note: `n${FORGED}`, count: '3' } },
  { id: `dropped${FORGED}`, name: 'save', arguments: { note: 'n', [`key${FORGED}`]: `value${FORGED}` } },
  { id: `refused${FORGED}`, name: 'save', arguments: { note: 'n', count: `3${FORGED}` } },
  { id: `unknown${FORGED}`, name: `tool${FORGED}`, arguments: {} },
  { id: `spoof${FORGED}`, name: 'save', arguments: { note: 'n', metadata: { [`session${FORGED}_id`]: FORGED } } },
  { id: `context${FORGED}`, name: 'save', arguments: JSON.stringify({ note: 'n', session_id: FORGED }) },
  { id: `failed${FORGED}`, name: 'save', arguments: { note: 'fail' } },
];

async function runAll(logger: Logger): Promise<void> {
  const executor = new PersonaToolExecutor(registry(), { logger });
  for (const call of CALLS) await executor.execute(call);
}

function collector(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

/** The lines of `text` (split on LF only): none holds a raw terminator or control; at least `minimum` of them. */
function expectOneLinePerEvent(text: string, minimum: number): string[] {
  const lines = text.split('\n').filter((line) => line !== '');
  expect(lines.length).toBeGreaterThanOrEqual(minimum);
  for (const line of lines) expect(line).not.toMatch(RAW);
  expect(lines.filter((line) => line.startsWith('[toolwright] ERROR forged'))).toEqual([]);
  return lines;
}

describe('no raw line terminator in any log line (issue 28, failure 5)', () => {
  it('escapeLogText escapes every Unicode line terminator and control, and keeps JSON valid', () => {
    expect(escapeLogText('a\u2028b\u2029c\u0085d\re\u000bf\u000cg\nh\u0000i\u200bj\u{e0020}k')).toBe(
      'a\\u2028b\\u2029c\\u0085d\\re\\u000bf\\u000cg\\nh\\u0000i\\u200bj\\udb40\\udc20k',
    );
    const json = JSON.stringify({ value: `x${FORGED}\u{e0020}` });
    expect(JSON.parse(escapeLogText(json))).toEqual(JSON.parse(json));
    expect(escapeLogText('plain text, "quoted"')).toBe('plain text, "quoted"');
  });

  it('createStderrLogger: one line per event, details still JSON', async () => {
    const sink = collector();
    await runAll(createStderrLogger({ level: 'debug', stream: sink.stream }));
    const lines = expectOneLinePerEvent(sink.text(), CALLS.length);
    for (const line of lines) {
      const brace = line.indexOf(' {');
      if (brace > 0) expect(() => JSON.parse(line.slice(brace + 1)) as unknown).not.toThrow();
    }
    expect(sink.text()).toContain('ok\\u2028[toolwright] ERROR forged\\u2029');
  });

  it('createConsoleLogger over a real node:console Console', async () => {
    const out = new PassThrough();
    const err = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString()));
    err.on('data', (chunk: Buffer) => (text += chunk.toString()));
    await runAll(createConsoleLogger(new Console({ stdout: out, stderr: err, colorMode: false }), { level: 'debug' }));
    expectOneLinePerEvent(text, CALLS.length);
  });

  it('pinoLogger over the real pino: every record one JSON line, the values escaped', async () => {
    const sink = collector();
    await runAll(pinoLogger(pino({ level: 'debug', base: undefined, timestamp: false }, sink.stream)));
    const lines = expectOneLinePerEvent(sink.text(), CALLS.length);
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.map((record) => record['callId'])).toContain(escapeLogText(`ok${FORGED}`));
  });
});
