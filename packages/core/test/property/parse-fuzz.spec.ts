import 'reflect-metadata';
import fc from 'fast-check';
import { DEFAULT_LIMITS, ToolCallError, ToolwrightError } from '@toolwright/core';
import { parseArguments } from '@toolwright/core/internal';

/**
 * Issue 11: every text-repair path is linear. Random and adversarial text up to 1 MiB goes to `parseArguments`;
 * every outcome is a value or a typed error, and time per KiB stays under a fixed bound. The bound is a ratio measured
 * in this run (never an absolute time): against the same family at 1/8 of the size (linear growth is 8, quadratic
 * 64), and against the reader's own time per KiB on a large repaired document (the baseline).
 * TOOLWRIGHT_FUZZ_RUNS raises the number of random inputs.
 */
const KIB = 1024;
const MIB = 1024 * KIB;
const LIMITS = { ...DEFAULT_LIMITS, maxArrayItems: 1_000_000 };
/** Allowed growth from 128 KiB to 1 MiB: 8 is linear, quadratic is 64; 48 leaves room for GC pauses on a shared machine. */
const MAX_GROWTH = 48;
/** Allowed time per KiB of any input, in multiples of the baseline's time per KiB. */
const MAX_PER_KIB_RATIO = 25;
const RANDOM_RUNS = Math.max(60, Number(process.env['TOOLWRIGHT_FUZZ_RUNS'] ?? 60));

type Policy = 'safe' | 'lenient';

/** Repeats `unit` to `size` characters, between `prefix` and `suffix`. */
function fill(prefix: string, unit: string, size: number, suffix = ''): string {
  const count = Math.max(1, Math.floor((size - prefix.length - suffix.length) / unit.length));
  return prefix + unit.repeat(count) + suffix;
}

/** The reproducers of issue 11 and the relatives of each repair path, as functions of the size. */
const FAMILIES: ReadonlyArray<readonly [string, (size: number) => string, Policy]> = [
  ['duplicate keys, missing commas', (size) => fill('{', '"a":1 ', size, '}'), 'safe'],
  ['duplicate keys, valid JSON', (size) => fill('{', '"a":1,', size, '"a":1}'), 'safe'],
  ['list without commas', (size) => fill('{"list":[', '1 ', size, ']}'), 'safe'],
  ['runs of quotes', (size) => fill('{"a": ', '"', size, '}'), 'safe'],
  ['quotes and spaces', (size) => fill('{"a": "', '" ', size, '"}'), 'safe'],
  ['inner quotes', (size) => fill('{"a": "', 'x "y" ', size, '"}'), 'safe'],
  ['missing colons', (size) => fill('{', '"a" 1, ', size, '"b" 2}'), 'safe'],
  ['unquoted keys', (size) => fill('{', 'key: 1, ', size, 'end: 2}'), 'safe'],
  ['single quotes', (size) => fill('{', "'k': 'v', ", size, "'e': 'v'}"), 'safe'],
  ['Python literals', (size) => fill('{"a": [', "True, None, ('x', 1.5), ", size, 'False]}'), 'safe'],
  ['backslashes', (size) => fill('{"a": "', '\\\\', size, '"}'), 'safe'],
  ['invalid escapes', (size) => fill('{"a": "', '\\d', size, '"}'), 'safe'],
  ['raw newlines', (size) => fill('{"a": "', 'x\n', size, '"}'), 'safe'],
  ['comments', (size) => fill('{"a": 1 ', '/* c */ // d\n', size, '}'), 'safe'],
  ['unclosed comment openers', (size) => fill('{"a": "x" ', '/*', size), 'safe'],
  ['quote before comment openers', (size) => fill('{"a": "', '" /*', size, '"}'), 'safe'],
  ['deep brackets', (size) => fill('{"a": ', '[', size), 'safe'],
  ['long digits', (size) => fill('{"a": ', '9', size, '}'), 'safe'],
  ['nested fences', (size) => fill('', '```\n', size), 'safe'],
  [
    'fence in a fence in a fence',
    (size) => `${'```json\n'.repeat(3)}${fill('{"a": [', '1,', size - 40, '1]}')}${'\n```'.repeat(3)}`,
    'safe',
  ],
  ['prose with fences', (size) => fill('', 'a```\n', size), 'lenient'],
  ['prose with braces', (size) => fill('Here: ', '{"a": 1} or ', size), 'lenient'],
  ['prose with open braces', (size) => fill('Here: ', '{ ', size), 'lenient'],
  ['tool_call blocks', (size) => fill('<tool_call>', '<tool_call>', size, '</tool_call>'), 'safe'],
  ['double-encoded', (size) => JSON.stringify(fill('{', '"k": "v\\\\", ', Math.floor(size / 2), '"e": 1,}')), 'safe'],
];

interface Outcome {
  readonly typed: boolean;
  readonly milliseconds: number;
}

function attempt(text: string, policy: Policy): Outcome {
  const started = performance.now();
  let typed = true;
  try {
    parseArguments(text, policy, LIMITS);
  } catch (error) {
    typed = error instanceof ToolCallError && error instanceof ToolwrightError;
    if (!typed) throw error;
  }
  return { typed, milliseconds: performance.now() - started };
}

/** The fastest of a few runs (the least disturbed by other processes on the machine). */
function fastest(text: string, policy: Policy, runs = 3): number {
  let best = Infinity;
  for (let run = 0; run < runs; run++) best = Math.min(best, attempt(text, policy).milliseconds);
  return best;
}

function perKib(milliseconds: number, text: string): number {
  return milliseconds / (text.length / KIB);
}

describe('parseArguments on hostile text up to 1 MiB', () => {
  // The baseline: the reader's own pace on a large document that needs repairs everywhere (Python literals).
  const baselineText = `{${Array.from({ length: 24_000 }, (_, index) => `'key${index}': ['value', True, None, 12.5]`).join(', ')}}`;
  let baseline = 0;
  const report: string[] = [];

  beforeAll(() => {
    attempt(baselineText, 'safe');
    baseline = perKib(fastest(baselineText, 'safe'), baselineText);
  });

  afterAll(() => {
    console.log(`parse fuzz: baseline ${baseline.toFixed(4)} ms/KiB\n${report.join('\n')}`);
  });

  it.each(FAMILIES)('%s: linear growth, bounded time per KiB, a value or a typed error', (name, make, policy) => {
    const small = make(128 * KIB);
    const large = make(MIB - 64);
    expect(large.length).toBeLessThanOrEqual(MIB);
    attempt(small, policy);
    const smallTime = fastest(small, policy, 5);
    const largeTime = fastest(large, policy);
    // Fast families finish 128 KiB in about a millisecond, where timer resolution and GC dominate: the small size's
    // time counts as at least 5% of the baseline's time for 128 KiB.
    const growth = largeTime / Math.max(smallTime, 0.05 * 128 * baseline);
    const ratio = perKib(largeTime, large) / baseline;
    report.push(
      `  ${name.padEnd(32)} 128 KiB ${smallTime.toFixed(2)} ms, 1 MiB ${largeTime.toFixed(2)} ms, growth ${growth.toFixed(1)}, per KiB ${ratio.toFixed(2)}x baseline`,
    );
    expect({ name, growth: growth <= MAX_GROWTH }).toEqual({ name, growth: true });
    expect({ name, ratio: ratio <= MAX_PER_KIB_RATIO }).toEqual({ name, ratio: true });
  });

  it('random text and random mixtures of JSON-like tokens: a value or a typed error, bounded time per KiB', () => {
    const token = fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      '(',
      ')',
      '"',
      "'",
      '"""',
      "'''",
      ':',
      ',',
      ' ',
      '\n',
      '\\',
      '\\u00',
      '\\x',
      '//',
      '/*',
      '*/',
      '```',
      '<tool_call>',
      '</tool_call>',
      'True',
      'None',
      'NaN',
      '1',
      '-',
      '.',
      'e',
      '12345678901234567890',
      'a',
      '__proto__',
      '"name"',
      '"arguments"',
    );
    const chunk = fc.oneof(
      fc.array(token, { minLength: 1, maxLength: 40 }).map((tokens) => tokens.join('')),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }),
    );
    let slowest = 0;
    let large = 0;
    fc.assert(
      fc.property(
        chunk,
        fc.integer({ min: 0, max: 20 }),
        fc.constantFrom<Policy>('safe', 'lenient'),
        fc.constantFrom('', '{', '{"a": ', '```json\n'),
        (unit, exponent, policy, prefix) => {
          // Sizes from a few bytes to 1 MiB, log-uniform.
          const size = Math.min(MIB - 16, Math.max(unit.length, Math.round(2 ** exponent)));
          const text = fill(prefix, unit, size);
          const outcome = attempt(text, policy);
          expect(outcome.typed).toBe(true);
          if (text.length >= 64 * KIB) {
            large++;
            const ratio = perKib(fastest(text, policy, 2), text) / baseline;
            slowest = Math.max(slowest, ratio);
            expect({ prefix, unit: unit.slice(0, 40), ratio: ratio <= MAX_PER_KIB_RATIO }).toEqual({
              prefix,
              unit: unit.slice(0, 40),
              ratio: true,
            });
          }
        },
      ),
      { seed: 110011, numRuns: RANDOM_RUNS },
    );
    report.push(
      `  random: ${RANDOM_RUNS} inputs, ${large} of 64 KiB or more, slowest ${slowest.toFixed(2)}x baseline per KiB`,
    );
    expect(large).toBeGreaterThan(0);
  }, 60_000);
});
