import { isEmail } from 'class-validator';
import { isEmailDefault, isPlainAsciiEmail } from '../../src/rules/validator-js';
import { seededRandom, type SeededRandom } from '../support/seeded-random';
import { singleEdits } from '../support/single-edits';

/**
 * Issue 12: `isPlainAsciiEmail` (the ASCII fast path of `isEmailDefault`, which `@IsEmail()` runs on the compiled path)
 * skips `indexOf('@')` for addresses of up to 64 characters. It must answer exactly as the function it replaced
 * (`replacedIsPlainAsciiEmail`, kept here as it was in commit 2d6569e) for every string, and `isEmailDefault` must
 * still answer exactly as validator.js (through class-validator, default options), throws included. Inputs are biased
 * toward near-valid addresses: every one-character edit of valid addresses (each position, replaced, inserted or
 * deleted, by letters, digits, every atom special, punctuation, white space, non-ASCII characters and lone surrogates),
 * every local-part and domain length around the limits (1-66 and 4-70, so totals of 64, 65 and beyond), and 200,000
 * fixed-seed mutations and generated addresses.
 */

const PLAIN_ASCII_EMAIL =
  /^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-zA-Z0-9]+(?:-+[a-zA-Z0-9]+)*\.)+(?:[a-zA-Z]{2,}|[xX][nN][a-zA-Z0-9-]+[a-zA-Z0-9])$/;

function replacedIsPlainAsciiEmail(text: string): boolean {
  const at = text.indexOf('@');
  return at >= 1 && at <= 64 && text.length - at <= 64 && PLAIN_ASCII_EMAIL.test(text);
}

function outcome(check: (value: string) => boolean, value: string): string {
  try {
    return check(value) ? 'valid' : 'invalid';
  } catch (error) {
    return `throws ${(error as Error).name}: ${(error as Error).message}`;
  }
}

const SEED = 0x2026_1127;
const GENERATED = 200_000;

const VALID_BASES = [
  'user0@example.com',
  'a@b.co',
  'first.last@sub.example.org',
  "!#$%&'*+-/=?^_`{|}~@example.com",
  'x@xn--p1ai.xn--p1ai',
  'a-b@c-d.e--f.gh',
  'A1.B2@C3.EXAMPLE.XN--P1AI',
  `${'a'.repeat(64)}@example.com`,
  `a@${'b'.repeat(59)}.com`,
  `${'l'.repeat(30)}@${'d'.repeat(29)}.com`,
];

const EDIT_CHARACTERS = [
  ...'azAZxnXN09',
  ..."!#$%&'*+-/=?^_`{|}~",
  ...'.@ "\\(),:;<>[]',
  '\t',
  '\n',
  '\u0000',
  '\u007f',
  '\u0080',
  '\u00a0',
  '\u00a1',
  'é',
  'ü',
  '端',
  'ſ', // LATIN SMALL LETTER LONG S (folds to s)
  '\u212a', // KELVIN SIGN (folds to k)
  '\ud800', // lone high surrogate
  '\udc00', // lone low surrogate
  '\ud83d\ude00',
  '\uff01',
  '\uffff',
];

/** A domain of exactly `length` characters (at least 4): one or two labels and a two-letter TLD. */
function domainOfLength(length: number): string {
  const labels = length - 3;
  return labels > 63 ? `${'d'.repeat(40)}.${'e'.repeat(labels - 41)}.co` : `${'d'.repeat(labels)}.co`;
}

/** Local parts of 1-66 characters with short and long domains, and domains of 4-70 with short and long local parts. */
function* lengthLimits(): Generator<string> {
  for (let local = 1; local <= 66; local++) {
    for (const domain of [4, 5, 11, 58, 59, 60, 61, 62, 63, 64, 65]) {
      yield `${'u'.repeat(local)}@${domainOfLength(domain)}`;
      yield `${'u'.repeat(Math.max(0, local - 2))}${local >= 3 ? '.v' : 'v'}@${domainOfLength(domain)}`;
    }
  }
  for (let domain = 4; domain <= 70; domain++) {
    for (const local of [1, 2, 3, 4, 5, 59, 60, 61, 62, 63, 64, 65])
      yield `${'u'.repeat(local)}@${domainOfLength(domain)}`;
  }
}

const ATOM_ALPHABET = [..."abcxyzABCXYZ0189!#$%&'*+-/=?^_`{|}~"];
const LABEL_ALPHABET = [...'abcnxzABNXZ0189-'];

function piece(random: SeededRandom, alphabet: readonly string[], length: number): string {
  let text = '';
  for (let index = 0; index < length; index++) text += random.pick(alphabet);
  return text;
}

/** A generated address near the fast path's grammar and its limits, or a valid base, then 0-3 one-character edits. */
function address(random: SeededRandom): string {
  let text: string;
  if (random.chance(0.5)) {
    const atoms = Array.from({ length: 1 + random.below(3) }, () =>
      piece(random, ATOM_ALPHABET, random.chance(0.1) ? 20 + random.below(46) : random.below(8)),
    );
    const labels = Array.from({ length: random.below(4) }, () =>
      piece(random, LABEL_ALPHABET, random.chance(0.1) ? 50 + random.below(16) : random.below(10)),
    );
    const tld = random.chance(0.2)
      ? random.pick(['xn--p1ai', 'XN--P1AI', 'xn-a', 'xn--', 'xnab', 'x-', 'xn', 'c0', 'co-'])
      : piece(random, [...'abcXYZ'], random.below(5));
    text = `${atoms.join('.')}${random.chance(0.95) ? '@' : random.pick(['', '@@', '.@', '@.'])}${[...labels, tld].join('.')}`;
  } else {
    text = random.pick(VALID_BASES);
  }
  const edits = random.below(4);
  for (let edit = 0; edit < edits; edit++) {
    const at = random.below(text.length + 1);
    const roll = random.below(3);
    const character = random.pick(EDIT_CHARACTERS);
    if (roll === 0) text = text.slice(0, at) + character + text.slice(at + 1);
    else if (roll === 1) text = text.slice(0, at) + character + text.slice(at);
    else text = text.slice(0, at) + text.slice(at + 1);
  }
  return text;
}

interface Tally {
  readonly found: string[];
  count: number;
  fastPath: number;
  valid: number;
}

function compare(inputs: Iterable<string>): Tally {
  const tally: Tally = { found: [], count: 0, fastPath: 0, valid: 0 };
  for (const text of inputs) {
    tally.count++;
    const fast = isPlainAsciiEmail(text);
    const replaced = replacedIsPlainAsciiEmail(text);
    const reference = outcome((value) => isEmail(value, undefined), text);
    const whole = outcome(isEmailDefault, text);
    if (fast) tally.fastPath++;
    if (reference === 'valid') tally.valid++;
    if ((fast !== replaced || whole !== reference) && tally.found.length < 10)
      tally.found.push(
        `${JSON.stringify(text)}: fast path ${fast} (was ${replaced}), isEmailDefault ${whole}, validator.js ${reference}`,
      );
  }
  return tally;
}

describe('isPlainAsciiEmail against the check it replaced, and isEmailDefault against validator.js (issue 12)', () => {
  it('agree on every one-character edit of valid addresses and every length around the limits', () => {
    const tally = compare([...singleEdits(VALID_BASES, EDIT_CHARACTERS), ...lengthLimits()]);
    expect(tally.found).toEqual([]);
    expect(tally.count).toBeGreaterThan(30_000);
    // The fast path takes many of them and refuses many; validator.js refuses many more.
    expect(tally.fastPath).toBeGreaterThan(tally.count / 20);
    expect(tally.count - tally.valid).toBeGreaterThan(tally.count / 2);
  }, 120_000);

  it(`agree on ${GENERATED.toLocaleString('en-US')} generated and mutated addresses (seed ${SEED})`, () => {
    const random = seededRandom(SEED);
    const tally = compare(Array.from({ length: GENERATED }, () => address(random)));
    expect(tally.found).toEqual([]);
    expect(tally.fastPath).toBeGreaterThan(GENERATED / 10);
    expect(GENERATED - tally.valid).toBeGreaterThan(GENERATED / 10);
  }, 120_000);
});
