import 'reflect-metadata';
import { ToolRegistry, silentLogger, type CoercionPolicy } from '@toolwright/core';
import {
  generateBoundedAcceptFunction,
  NOT_ACCEPTED,
  type BoundedAcceptFunction,
  type OrderFact,
} from '@toolwright/core/compile/accept-generator';
import { generateArgumentReader, type ArgumentReader } from '@toolwright/core/compile/reader-generator';
import { DEFAULT_LIMITS, type PipelineLimits } from '@toolwright/core/pipeline/limits';
import { parseCheckedArguments } from '@toolwright/core/pipeline/parse-arguments';
import { callTargetFor, type CallTarget } from '@toolwright/core/pipeline/unwrap-call';
import { objectSchema, textFor, TOOL, type JsonSchema } from '../support/json-schema-texts';
import { compareWithoutFastPath, registerSchemaTool } from '../support/fast-path-executors';
import { seededRandom, type SeededRandom } from '../support/seeded-random';
import { showValue } from '../support/show-value';

/**
 * Issue 12, decision 0023's differential test: the generated checked reader of compact arguments text
 * (`compile/reader-generator.ts`) against JSON.parse and the canonical check as the oracle. Over random JSON Schema
 * tools (bounds, enums, patterns, multiples, item counts, unique items, dates, nullable values, hostile, prototype,
 * array-index and prefix property names) and random texts for them (the fused-parse-check generators: compact and
 * spaced, duplicate keys at every depth, integers beyond 2^53, escapes, envelopes, broken JSON) with more damage done
 * to the text (raw control characters, lone surrogates and other non-ASCII in strings and keys, `-0`, leading zeros,
 * fractions, exponents, long integers, truncation, trailing garbage): whenever the reader returns a value, JSON.parse
 * reads the text as the same value (key order, -0, prototype), the text has no key twice in one object (JSON.parse
 * lost nothing), the canonical check accepts JSON.parse's value, and the reader says "declaration order" only when the
 * check says so too. The parse step with and without the reader gives the same value, transformations and answer of
 * the check, or the same error; executors with the reader (from a tool's second call) and without the fast path return
 * the same results and log records.
 */

const SEED = 0x2023_1126;
const SCHEMAS = 1_000;
const TEXTS_PER_SCHEMA = 30;
const EXECUTOR_TEXTS_PER_SCHEMA = 16;
const SMALL_LIMITS: PipelineLimits = { ...DEFAULT_LIMITS, maxDepth: 3, maxArrayItems: 4 };
const POLICIES: readonly CoercionPolicy[] = ['strict', 'safe', 'lenient'];
const FACTS = new Float64Array(1);

const CONTROL = ['\u0000', '\u0001', '\u001f', '\t', '\n', '\r'];
const ODD_CHARACTERS = ['\ud800', '\udfff', '\udc00x', 'é', '😀', '\u2028', '\u007f', ' ', '\\', '/'];
const NUMBER_LITERALS = [
  '-0',
  '0',
  '-0.0',
  '01',
  '-01',
  '00',
  '1.0',
  '1.5',
  '1e2',
  '1E+2',
  '-1e-2',
  '-',
  '123456789012345',
  '-999999999999999',
  '1234567890123456',
  '9007199254740993',
  '1.',
  '.5',
  '+1',
  '0x1',
];
const TRAILING = [' ', '\n', 'x', '}', ',', '0', '{}', '\u0000'];

/** Damages a text the way a model (or an attacker) might: one edit, sometimes none. */
function mutate(random: SeededRandom, text: string): string {
  const quoteAt = (): number => {
    const quotes: number[] = [];
    for (let at = text.indexOf('"'); at !== -1; at = text.indexOf('"', at + 1)) quotes.push(at);
    return quotes.length === 0 ? -1 : random.pick(quotes);
  };
  switch (random.below(8)) {
    case 0: {
      const at = quoteAt();
      return at === -1 ? text : text.slice(0, at + 1) + random.pick(CONTROL) + text.slice(at + 1);
    }
    case 1: {
      const at = quoteAt();
      return at === -1 ? text : text.slice(0, at + 1) + random.pick(ODD_CHARACTERS) + text.slice(at + 1);
    }
    case 2: {
      // A number replaced (a digit run after `:`, `[` or `,`).
      const runs = [...text.matchAll(/(?<=[:[,])-?\d+/g)];
      if (runs.length === 0) return text;
      const run = random.pick(runs);
      const literal = random.chance(0.3) ? '-0' : random.pick(NUMBER_LITERALS);
      return text.slice(0, run.index) + literal + text.slice(run.index + run[0].length);
    }
    case 3:
      return text + random.pick(TRAILING);
    case 4:
      return text.slice(0, random.below(text.length + 1));
    default:
      return text;
  }
}

/** Whether some object in valid JSON text has a key twice (JSON.parse keeps the last copy only). */
function hasDuplicateKey(text: string): boolean {
  let at = 0;
  const skipSpace = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at]!)) at++;
  };
  const stringEnd = (start: number): number => {
    let end = start + 1;
    while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
    return end + 1;
  };
  const value = (): boolean => {
    skipSpace();
    const first = text[at];
    if (first === '{') {
      at++;
      const keys = new Set<string>();
      let duplicate = false;
      skipSpace();
      if (text[at] === '}') {
        at++;
        return false;
      }
      for (;;) {
        skipSpace();
        const end = stringEnd(at);
        const key = JSON.parse(text.slice(at, end)) as string;
        at = end;
        if (keys.has(key)) duplicate = true;
        keys.add(key);
        skipSpace();
        at++; // the colon
        if (value()) duplicate = true;
        skipSpace();
        if (text[at++] === '}') return duplicate;
      }
    }
    if (first === '[') {
      at++;
      let duplicate = false;
      skipSpace();
      if (text[at] === ']') {
        at++;
        return false;
      }
      for (;;) {
        if (value()) duplicate = true;
        skipSpace();
        if (text[at++] === ']') return duplicate;
      }
    }
    if (first === '"') at = stringEnd(at);
    else while (at < text.length && !',]} \t\n\r'.includes(text[at]!)) at++;
    return false;
  };
  return value();
}

function outcome(run: () => ReturnType<typeof parseCheckedArguments>): string {
  try {
    const parsed = run();
    return `ok ${showValue(parsed.value)} owned=${parsed.owned} accepted=${parsed.accepted} ${showValue(parsed.transformations)}`;
  } catch (error) {
    const thrown = error as Error & { issues?: unknown };
    return `error ${thrown.constructor.name} ${thrown.message} ${showValue(thrown.issues)}`;
  }
}

interface Tool {
  readonly target: CallTarget;
  readonly accept: Map<PipelineLimits, BoundedAcceptFunction>;
  readonly read: Map<PipelineLimits, ArgumentReader | undefined>;
  /** Where each accept function and each reader leave their order fact. */
  readonly acceptOrder: OrderFact;
  readonly readOrder: OrderFact;
}

function registered(schema: JsonSchema): Tool | undefined {
  const registry = registerSchemaTool(schema);
  if (registry === undefined) return undefined;
  const definition = registry.getEntry(TOOL)!.definition;
  const limits = [DEFAULT_LIMITS, SMALL_LIMITS];
  const acceptOrder: OrderFact = { root: undefined };
  const readOrder: OrderFact = { root: undefined };
  return {
    target: callTargetFor(definition, (name) => name === TOOL),
    accept: new Map(
      limits.map((each) => [each, generateBoundedAcceptFunction(definition.parameters, each, acceptOrder)]),
    ),
    read: new Map(limits.map((each) => [each, generateArgumentReader(definition.parameters, each, readOrder)])),
    acceptOrder,
    readOrder,
  };
}

describe('the generated reader of compact arguments text (decision 0023)', () => {
  describe('on chosen texts', () => {
    const registry = new ToolRegistry({ logger: silentLogger });
    registry.registerJsonSchemaTool(
      {
        name: TOOL,
        parameters: {
          type: 'object',
          properties: {
            title: { type: 'string', maxLength: 30 },
            titles: { type: 'array', items: { type: 'string' } },
            n: { type: 'integer' },
            inner: { type: 'object', properties: { a: { type: 'string' }, '1': { type: 'integer' } } },
            when: { type: 'string', format: 'date-time' },
            maybe: { type: ['string', 'null'] },
          },
          required: ['title'],
        },
      },
      (params) => params,
    );
    const order: OrderFact = { root: undefined };
    const read = generateArgumentReader(registry.getEntry(TOOL)!.definition.parameters, DEFAULT_LIMITS, order)!;

    it.each([
      ['{"title":"é","n":-0}', true],
      ['{"title":"x","when":"2026-01-31T09:00:00+01:00","maybe":null}', true],
      ['{"title":"x","maybe":null,"when":"2026-01-31T09:00:00+01:00"}', false],
      ['{"titles":["a"],"title":"x"}', false],
      ['{"title":"x","inner":{"a":"y","1":2}}', false],
      // (Any object of a node with an array-index key: the order flag's safe answer.)
      ['{"title":"x","inner":{"a":"y"}}', false],
      ['{"title":"x","titles":[]}', true],
    ])('reads %s as JSON.parse does (in declaration order: %s)', (text, inOrder) => {
      order.root = 'stale';
      const value = read(text);
      expect(showValue(value)).toBe(showValue(JSON.parse(text)));
      expect(order.root === value).toBe(inOrder);
    });

    it.each([
      ['{}', 'a required key missing'],
      ['{"title":"a\\u0062"}', 'an escape'],
      ['{"title":"x" }', 'white space'],
      ['{"title":"x","title":"y"}', 'a key twice'],
      ['{"title":"x","n":1.5}', 'a fraction'],
      ['{"title":"x","n":1e2}', 'an exponent'],
      ['{"title":"x","n":1234567890123456}', 'an integer of 16 digits'],
      ['{"title":"x","n":01}', 'a leading zero'],
      ['{"title":"x","when":"2026-01-31 09:00"}', 'a date-time to repair'],
      ['{"title":"x","maybe":nul}', 'a broken null'],
      ['{"title":"x"}x', 'text after the object'],
      ['{"title":"x","other":1}', 'an undeclared key'],
      ['{"title":"x","titl":"y"}', 'a prefix of a declared key'],
      ['{"title":"x","n":"1"}', 'a string for an integer'],
      [`{"title":"${'x'.repeat(31)}"}`, 'a string beyond its maximum length'],
      ['{"title":"x","__proto__":{}}', 'a prototype key'],
      ['{"title":"tab\there"}', 'an escaped tab'],
      ['{"title":"tab	here"}', 'a raw tab'],
    ])('leaves %s to JSON.parse (%s)', (text) => {
      order.root = 'stale';
      expect(read(text)).toBeUndefined();
      expect(order.root).toBe('stale');
    });
  });

  it(`reads what JSON.parse reads and the check accepts, or nothing, on ${TEXTS_PER_SCHEMA} texts for each of ${SCHEMAS.toLocaleString('en-US')} random tools (seed ${SEED})`, () => {
    const random = seededRandom(SEED);
    const mismatches: string[] = [];
    const counts = {
      texts: 0,
      readers: 0,
      read: 0,
      readInOrder: 0,
      readOutOfOrder: 0,
      refusedAccepted: 0,
      refusedValidJson: 0,
      mutated: 0,
      readNonAscii: 0,
      readMinusZero: 0,
    };
    let tools = 0;
    const report = (message: string) => {
      if (mismatches.length < 5) mismatches.push(message);
    };
    for (let index = 0; index < SCHEMAS; index++) {
      const schema = objectSchema(random, 1);
      const tool = registered(schema);
      if (tool === undefined) continue;
      tools++;
      if (tool.read.get(DEFAULT_LIMITS) !== undefined) counts.readers++;
      for (let call = 0; call < TEXTS_PER_SCHEMA; call++) {
        const original = textFor(random, schema);
        const text = random.chance(0.5) ? mutate(random, original) : original;
        if (text !== original) counts.mutated++;
        const limits = random.chance(0.2) ? SMALL_LIMITS : DEFAULT_LIMITS;
        const policy = random.pick(POLICIES);
        const accept = tool.accept.get(limits)!;
        const read = tool.read.get(limits);
        counts.texts++;
        // The oracle: JSON.parse.
        let parsed: unknown;
        let parsedOk = true;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsedOk = false;
        }
        tool.readOrder.root = 'stale';
        const value = read?.(text);
        const readInOrder = value !== undefined && tool.readOrder.root === value;
        if (value === undefined && tool.readOrder.root !== 'stale') report(`refused and wrote the order fact: ${text}`);
        tool.acceptOrder.root = 'stale';
        const accepted =
          parsedOk && typeof parsed === 'object' && parsed !== null && accept(parsed, FACTS) !== NOT_ACCEPTED;
        const acceptInOrder = accepted && tool.acceptOrder.root === parsed;
        if (value !== undefined) {
          counts.read++;
          if (readInOrder) counts.readInOrder++;
          else counts.readOutOfOrder++;
          if (/[^\x20-\x7e]/.test(text)) counts.readNonAscii++;
          if (/[:,[]-0[,\]}]/.test(text)) counts.readMinusZero++;
          if (!parsedOk) report(`read what JSON.parse refuses: ${JSON.stringify(text)}`);
          else if (showValue(value) !== showValue(parsed))
            report(`${JSON.stringify(text)}: read ${showValue(value)}, JSON.parse ${showValue(parsed)}`);
          else if (hasDuplicateKey(text)) report(`read a text with a key twice: ${JSON.stringify(text)}`);
          else if (!accepted) report(`read what the check refuses: ${JSON.stringify(text)}`);
          else if (readInOrder && !acceptInOrder) report(`in order for the reader only: ${JSON.stringify(text)}`);
        } else if (parsedOk && read !== undefined && /^[^\s\\]*$/.test(text)) {
          counts.refusedValidJson++;
          if (accepted && !hasDuplicateKey(text)) counts.refusedAccepted++;
        }
        // The parse step with and without the reader.
        const withReader = outcome(() => parseCheckedArguments(text, policy, limits, tool.target, accept, read));
        const without = outcome(() => parseCheckedArguments(text, policy, limits, tool.target, accept));
        if (withReader !== without) report(`${JSON.stringify(text)} (${policy}):\n  ${withReader}\n  ${without}`);
      }
    }
    expect(mismatches).toEqual([]);
    expect(tools).toBeGreaterThan(SCHEMAS * 0.7);
    expect(counts.readers).toBeGreaterThan(tools * 0.9);
    expect(counts.texts).toBeGreaterThanOrEqual(20_000);
    // (Seeded: these counts are exact for the seed; the bounds catch a generator that stops reaching a case.)
    expect(counts.read).toBeGreaterThan(1_500);
    expect(counts.readInOrder).toBeGreaterThan(1_300);
    expect(counts.readOutOfOrder).toBeGreaterThan(80);
    // Accepted compact texts the reader leaves to JSON.parse (fractions, exponents, escapes-free oddities): few.
    expect(counts.refusedAccepted).toBeLessThan(counts.read / 4);
    expect(counts.readNonAscii).toBeGreaterThan(100);
    expect(counts.readMinusZero).toBeGreaterThan(10);
    expect(counts.refusedValidJson).toBeGreaterThan(1_000);
    expect(counts.mutated).toBeGreaterThan(5_000);
  });

  it('gives the same results and log records through executors with the reader and without it', async () => {
    // Without the fast path: neither the reader nor the canonical check.
    const { mismatches, calls } = await compareWithoutFastPath(seededRandom(SEED + 1), {
      tools: SCHEMAS / 4,
      callsPerTool: EXECUTOR_TEXTS_PER_SCHEMA,
      policies: POLICIES,
      text: (random, schema) => {
        const original = textFor(random, schema);
        return random.chance(0.5) ? mutate(random, original) : original;
      },
    });
    expect(mismatches).toEqual([]);
    expect(calls).toBeGreaterThan(2_500);
  });
});
