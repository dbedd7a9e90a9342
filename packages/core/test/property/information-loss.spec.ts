import { DEFAULT_LIMITS, type PipelineLimits } from '@toolwright/core/pipeline/limits';
import { parseArguments, parseArgumentsReference } from '@toolwright/core/pipeline/parse-arguments';
import {
  InformationLoss,
  informationLoss,
  inspectParsedValue,
  mayLoseInformationByScan,
  minNumberLength,
} from '@toolwright/core/pipeline/information-loss';
import { DANGEROUS_KEYS } from '@toolwright/core/pipeline/sanitize';
import { UnsafeIntegerLiteral } from '@toolwright/core/rules/unsafe-integer';
import type { CoercionPolicy } from '@toolwright/core';
import { mulberry32, seededRandom, type SeededRandom } from '../support/seeded-random';
import { showValue } from '../support/show-value';

/**
 * Issue 12's differential test of the parse step: `parseArguments` (a walk over JSON.parse's value and a count of the
 * text's quotes decide whether the exact reader reads the text again; long texts checked for nesting by bracket count,
 * and by the walk after JSON.parse) against `parseArgumentsReference` (the scan before JSON.parse and the text scan
 * after it, as before issue 12). Over texts from a fixed-seed generator: duplicate keys at any depth (equal values
 * too), escaped quotes and backslashes, \u escapes spelling quotes, colons and backslashes, long integers, long
 * fractions, exponents, white space, non-ASCII text, arrays of objects, prototype keys, arrays and nesting beyond the
 * limits (three sets of limits, one beyond the recursive walk's), texts longer than the nesting-scan threshold, and
 * broken JSON, under each policy: the same value, transformations and `owned`, or the same error (class, message,
 * issues).
 */

const SEED = 0x12_2026;
const TEXTS = 24_000;
const SMALL_LIMITS: PipelineLimits = {
  maxDepth: 4,
  maxArrayItems: 6,
  maxArgumentsBytes: DEFAULT_LIMITS.maxArgumentsBytes,
};
/** A depth limit beyond the recursive walk's (the loss check then walks iteratively). */
const DEEP_LIMITS: PipelineLimits = { ...DEFAULT_LIMITS, maxDepth: 2_000 };
const POLICIES: readonly CoercionPolicy[] = ['strict', 'safe', 'lenient'];

type Random = SeededRandom;

const KEYS = ['a', 'b', 'id', 'when', '0', '7', '__proto__', 'constructor', 'prototype', 'ké', 'a b', ''];
/** Pieces of string content as they appear in JSON text (escapes included). */
const STRING_PIECES = [
  'x',
  'hello',
  'Quarterly planning',
  '2026-01-31T09:00:00+01:00',
  'a:b',
  ' : ',
  '{',
  ']',
  'é',
  '中文',
  '😀',
  '\\"',
  '\\\\',
  '\\\\\\"',
  '\\n',
  '\\/',
  '\\u0022',
  '\\u003a',
  '\\u005c',
  '\\u00e9',
  '\\ud83d\\ude00',
  '\\ud800',
  '12345678901234567',
  '"',
];
const NUMBERS = [
  '0',
  '-0',
  '45',
  '-7',
  '9007199254740991',
  '9007199254740992',
  '9007199254740993',
  '-9007199254740993',
  '1152921504606846976',
  '12345678901234567890',
  '123456789012345678901234567890',
  '0.12345678901234567',
  '1234567890123456.5',
  '3.141592653589793238',
  '1e20',
  '1E400',
  '-1e-400',
  '12345678901234567e2',
  '1.5e16',
  '2.5e-7',
  '1e15',
  '100000000000000000000',
];
const BLANKS = ['', '', '', ' ', '\n', '\t', '\r\n  '];

function blank(random: Random): string {
  return random.chance(0.3) ? random.pick(BLANKS) : '';
}

function stringToken(random: Random, forKey: boolean): string {
  if (forKey && random.chance(0.8)) {
    const key = random.pick(KEYS);
    return random.chance(0.1) ? `"${key.replace('a', '\\u0061')}"` : JSON.stringify(key);
  }
  const pieces: string[] = [];
  const count = random.below(4);
  for (let index = 0; index < count; index++) {
    const piece = random.pick(STRING_PIECES);
    // A bare quote inside a string is broken JSON: kept rarely, for the repair paths.
    if (piece === '"' && !random.chance(0.05)) continue;
    pieces.push(piece);
  }
  return `"${pieces.join('')}"`;
}

function valueToken(random: Random, depth: number): string {
  const roll = random.below(depth > 6 ? 3 : 6);
  switch (roll) {
    case 0:
      return stringToken(random, false);
    case 1:
      return random.pick(NUMBERS);
    case 2:
      return random.pick(['true', 'false', 'null']);
    case 3:
    case 4:
      return objectToken(random, depth + 1);
    default:
      return arrayToken(random, depth + 1);
  }
}

function objectToken(random: Random, depth: number): string {
  const members: string[] = [];
  const count = random.below(5);
  for (let index = 0; index < count; index++) {
    const key = stringToken(random, true);
    const value = valueToken(random, depth);
    members.push(`${blank(random)}${key}${blank(random)}:${blank(random)}${value}${blank(random)}`);
    // The same key again: with the same value, or another one.
    if (random.chance(0.12)) {
      const again = random.chance(0.5) ? value : valueToken(random, depth);
      members.push(`${blank(random)}${key}:${blank(random)}${again}`);
    }
  }
  return `{${members.join(',')}}`;
}

function arrayToken(random: Random, depth: number): string {
  const items: string[] = [];
  const count = random.chance(0.1) ? 5 + random.below(5) : random.below(4);
  const objects = random.chance(0.3);
  for (let index = 0; index < count; index++)
    items.push(
      `${blank(random)}${objects ? objectToken(random, depth + 1) : valueToken(random, depth)}${blank(random)}`,
    );
  return `[${items.join(',')}]`;
}

/** A value nested `levels` deep around a small object (brackets of both kinds). */
function nested(random: Random, levels: number): string {
  let text = objectToken(random, 1);
  for (let level = 0; level < levels; level++) text = random.chance(0.5) ? `[${text}]` : `{"n":${text}}`;
  return text;
}

/** Filler that makes a text longer than the nesting-scan threshold (4,096 characters). */
function filler(random: Random): string {
  const items = 150 + random.below(150);
  const item = random.pick([
    '"2026-01-31T09:00:00+01:00"',
    '12345',
    '{"email":"user@example.com"}',
    '[1,[2]]',
    '"\\"x\\""',
  ]);
  return `[${Array.from({ length: items }, () => item).join(',')}]`;
}

/** Arrays around arrays to about {@link DEEP_LIMITS}' depth, in fewer than 4,096 characters (no nesting scan). */
function deepArrays(random: Random): string {
  const levels = 1_990 + random.below(20);
  const inner = random.pick([
    '1',
    '{}',
    '{"a":1,"a":2}',
    '"x"',
    '{"__proto__":1}',
    '[0.12345678901234567]',
    '{"a":1e20}',
  ]);
  return `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;
}

function text(random: Random): string {
  const kind = random.below(20);
  let body: string;
  if (kind < 12) body = objectToken(random, 1);
  else if (kind === 12) body = `[${objectToken(random, 2)}]`;
  else if (kind === 13) body = JSON.stringify(objectToken(random, 1));
  else if (kind === 14) body = valueToken(random, 1);
  else if (kind === 15) body = `{"big":${filler(random)},"rest":${objectToken(random, 2)}}`;
  else if (kind === 16) body = `{"deep":${nested(random, random.below(80))},"big":${filler(random)}}`;
  else if (kind === 17)
    body = `{"deep":${nested(random, 60 + random.below(20))}}${' '.repeat(random.chance(0.5) ? 4100 : 0)}`;
  else if (kind === 18) body = `${'['.repeat(random.below(6000))}${random.chance(0.5) ? '' : ' "x" '}`;
  else if (kind === 19 && random.chance(0.3)) body = `{"deep":${nested(random, 1_990 + random.below(20))}}`;
  else body = objectToken(random, 1);
  // Broken JSON now and then: the repair paths and the scan after a failed JSON.parse.
  if (random.chance(0.08)) {
    const at = random.below(body.length + 1);
    body = random.chance(0.5) ? body.slice(0, at) + body.slice(at + 1) : `${body.slice(0, at)}'${body.slice(at)}`;
  }
  return `${blank(random)}${body}${blank(random)}`;
}

function outcome(parse: () => ReturnType<typeof parseArguments>): string {
  try {
    const parsed = parse();
    return `ok ${showValue(parsed.value)} owned=${parsed.owned} ${showValue(parsed.transformations)}`;
  } catch (error) {
    const failure = error as Error & { issues?: unknown };
    return `error ${failure.constructor.name} ${failure.message} ${showValue(failure.issues)}`;
  }
}

describe('parseArguments against the reference checks (issue 12)', () => {
  it(`returns the same value, transformations and errors on ${TEXTS.toLocaleString('en-US')} generated texts (seed ${SEED})`, () => {
    const random = seededRandom(SEED);
    const mismatches: string[] = [];
    const decisions = { both: 0, newOnly: 0, referenceOnly: 0, long: 0, parsedLong: 0 };
    for (let index = 0; index < TEXTS; index++) {
      const limits = random.chance(0.3) ? SMALL_LIMITS : random.chance(0.1) ? DEEP_LIMITS : DEFAULT_LIMITS;
      const input = limits === DEEP_LIMITS && random.chance(0.5) ? deepArrays(random) : text(random);
      const policy = random.pick(POLICIES);
      const actual = outcome(() => parseArguments(input, policy, limits));
      const expected = outcome(() => parseArgumentsReference(input, policy, limits));
      if (actual !== expected && mismatches.length < 5) {
        mismatches.push(
          `${JSON.stringify(input.length > 300 ? `${input.slice(0, 150)}...${input.slice(-150)}` : input)} (${policy}, maxDepth ${limits.maxDepth}):\n  ${actual.slice(0, 300)}\n  ${expected.slice(0, 300)}`,
        );
      }
      const trimmed = input.trim();
      if (trimmed.length > 4096) decisions.long++;
      let parsed: unknown;
      try {
        parsed = JSON.parse(trimmed);
      } catch {
        continue;
      }
      if (trimmed.length > 4096) decisions.parsedLong++;
      const fast = informationLoss(trimmed, parsed, limits) !== InformationLoss.None;
      const reference = mayLoseInformationByScan(trimmed, parsed);
      if (fast && reference) decisions.both++;
      else if (fast) decisions.newOnly++;
      else if (reference) decisions.referenceOnly++;
    }
    expect(mismatches).toEqual([]);
    // The generator reaches every kind of disagreement the checks may have, so the comparison above tests them.
    expect(decisions.both).toBeGreaterThan(1000);
    expect(decisions.newOnly).toBeGreaterThan(100);
    expect(decisions.referenceOnly).toBeGreaterThan(100);
    expect(decisions.parsedLong).toBeGreaterThan(500);
    expect(decisions.long - decisions.parsedLong).toBeGreaterThan(100);
  });

  it("treats sanitize's prototype keys, and no other, as keys the reader drops", () => {
    for (const key of [...KEYS, '__proto', 'Constructor', 'prototypes', ...DANGEROUS_KEYS]) {
      const value: unknown = JSON.parse(`{${JSON.stringify(key)}: 1}`);
      expect({ key, differs: inspectParsedValue(value, DEFAULT_LIMITS).readerDiffers }).toEqual({
        key,
        differs: DANGEROUS_KEYS.has(key),
      });
    }
  });

  it('reads a duplicate key hidden among escaped quotes again (the reader refuses different values)', () => {
    const text = '{"a\\"":1,"b":"x\\"\\"","a\\"":2}';
    expect(informationLoss(text, JSON.parse(text), DEFAULT_LIMITS)).toBe(InformationLoss.Possible);
    expect(() => parseArguments(text, 'safe', DEFAULT_LIMITS)).toThrow(/more than once|twice|different values/);
  });

  it('keeps the digits of an integer beyond 2^53 written with few digits before an exponent-free fraction', () => {
    const parsed = parseArguments('{"id": 12345678901234567890, "ratio": 0.12345678901234567}', 'safe', DEFAULT_LIMITS);
    expect(parsed.value['id']).toBeInstanceOf(UnsafeIntegerLiteral);
    expect(parsed.value['ratio']).toBe(0.12345678901234567);
  });

  it('refuses a long text nested beyond the limit whether JSON.parse or the scan reads it first', () => {
    const deep = `${'['.repeat(70)}1${']'.repeat(70)}`;
    const fewBrackets = `{"deep":${deep},"pad":"${'x'.repeat(5000)}"}`;
    const manyBrackets = `{"deep":${deep},"pad":[${'[],'.repeat(3000)}[]]}`;
    for (const text of [fewBrackets, manyBrackets, `${fewBrackets.slice(0, -1)}`]) {
      expect(() => parseArguments(text, 'safe', DEFAULT_LIMITS)).toThrow(/levels of nesting|nest/);
      expect(() => parseArgumentsReference(text, 'safe', DEFAULT_LIMITS)).toThrow(/levels of nesting|nest/);
    }
  });
  it('decides compact text by its length only where no dropped key fits: every duplicate at the bound is read again', () => {
    // The literals a value can take in the fewest characters for its kind (the length bound's edge), kept and dropped.
    const shortest = [
      '0',
      '-1',
      '10',
      '-10',
      '100',
      '1e3',
      '0.5',
      '-0.5',
      '5e-1',
      'true',
      'false',
      'null',
      '""',
      '"é"',
    ];
    const containers = (literal: string) => [literal, '[]', '{}', `[${literal}]`, `{"":${literal}}`, `[${literal},0]`];
    const values = shortest.flatMap(containers);
    let compared = 0;
    let lengthDecided = 0;
    for (const kept of values) {
      for (const dropped of ['0', '""', '[]', '{}', ...shortest]) {
        // The dropped member first (JSON.parse keeps the last), at the top and one level down, with and without a
        // neighbour; and the same members with distinct keys (nothing dropped, decided by length alone).
        for (const members of [
          `"":${dropped},"":${kept}`,
          `"":${kept},"":${kept}`,
          `"a":${dropped},"":0,"a":${kept}`,
        ]) {
          for (const text of [`{${members}}`, `{"o":{${members}}}`, `{"l":[{${members}}],"n":1}`]) {
            const parsed: unknown = JSON.parse(text);
            expect(informationLoss(text, parsed, DEFAULT_LIMITS)).toBe(InformationLoss.Possible);
            expect(outcome(() => parseArguments(text, 'safe', DEFAULT_LIMITS))).toBe(
              outcome(() => parseArgumentsReference(text, 'safe', DEFAULT_LIMITS)),
            );
            compared++;
          }
        }
        const distinct = `{"a":${dropped},"b":${kept}}`;
        const parsed: unknown = JSON.parse(distinct);
        const facts = inspectParsedValue(parsed, DEFAULT_LIMITS);
        // Each literal here is as short as its value allows (but `5e-1`: `0.5`), so the bound is the text's length.
        const spare = (dropped === '5e-1' ? 1 : 0) + (kept.includes('5e-1') ? 1 : 0);
        expect(facts.minTextLength).toBe(distinct.length - spare);
        expect(informationLoss(distinct, parsed, DEFAULT_LIMITS)).toBe(InformationLoss.None);
        lengthDecided++;
      }
    }
    expect(compared).toBeGreaterThan(3000);
    expect(lengthDecided).toBeGreaterThan(1000);
  });

  it('bounds each number by its shortest literal', () => {
    const cases: Array<[number, number]> = [
      [0, 1],
      [-0, 1],
      [7, 1],
      [-7, 2],
      [10, 2],
      [99, 2],
      [-99, 3],
      [100, 3],
      [1000, 3],
      [1e21, 3],
      [0.5, 3],
      [-0.5, 4],
      [1.5e-7, 3],
      [123, 3],
      [1234, 4],
      [-1234, 5],
      [1230, 3],
      [120, 3],
      [9007199254740991, 16],
      [9007199254740990, 3],
      [9007199254740992, 3],
      [1.5, 3],
      [12.5, 4],
      [523.17, 5],
      [-523.17, 6],
      [4503599627370495.5, 18],
    ];
    for (const [value, length] of cases) expect([value, minNumberLength(value)]).toEqual([value, length]);
    // No literal of these numbers is shorter than the bound (the shortest spellings JSON allows).
    for (const literal of ['0', '7', '-7', '10', '99', '100', '1e2', '1e3', '1E3', '0.5', '5e-1', '-0.5', '1e21']) {
      expect(minNumberLength(JSON.parse(literal) as number)).toBeLessThanOrEqual(literal.length);
    }
  });

  it('bounds every number by each of its literals (seeded doubles, every spelling the Number methods give)', () => {
    const random = mulberry32(0x6e756d);
    const spellings = (value: number): string[] => {
      const found = new Set<string>([String(value), JSON.stringify(value)]);
      for (let digits = 0; digits <= 20; digits++) {
        found.add(value.toExponential(digits));
        found.add(value.toFixed(digits));
        if (digits > 0) found.add(value.toPrecision(digits));
      }
      // JSON spellings of each: `e+5` as `e5`, a mantissa `1.e3` is not JSON (dropped by the parse check below).
      const json = new Set<string>();
      for (const spelling of found) {
        json.add(spelling);
        json.add(spelling.replace('e+', 'e'));
        json.add(spelling.replace('e+', 'E'));
      }
      return [...json];
    };
    let literals = 0;
    const shorter: string[] = [];
    for (let index = 0; index < 3000; index++) {
      const scale = 10 ** Math.floor(random() * 20 - 4);
      const raw = (random() - 0.5) * scale;
      const value = index % 3 === 0 ? Math.round(raw) : index % 3 === 1 ? Math.round(raw * 100) / 100 : raw;
      const bound = minNumberLength(value);
      for (const literal of spellings(value)) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(literal);
        } catch {
          continue;
        }
        if (!Object.is(parsed, value) && !(parsed === 0 && value === 0)) continue;
        literals++;
        if (literal.length < bound) shorter.push(`${literal} (bound ${bound})`);
      }
    }
    expect(shorter).toEqual([]);
    expect(literals).toBeGreaterThan(20_000);
  });
});
