import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isEmail, isURL, isUUID } from 'class-validator';
import {
  fastRuleFor,
  isEmailDefault,
  isPlainAsciiEmail,
  isUrlDefault,
  isUuidDefault,
} from '../../src/rules/validator-js';

/**
 * The exact fast implementations of validator.js's isEmail / isUUID / isURL (default options, as class-validator's
 * `@IsEmail()`, `@IsUUID()`, `@IsUrl()` call them) against class-validator's own functions (which call validator.js):
 * validator.js's test inputs, then tens of thousands of generated inputs biased toward each grammar, then mutations of
 * the valid ones. Agreement must be exact: the same answer, or the same thrown error.
 */

const SEED = 20261124;
const RANDOM_RUNS = 30_000;
const MUTATION_RUNS = 10_000;

const edgeCases = JSON.parse(
  readFileSync(join(__dirname, '../fixtures/validator-js/edge-cases.json'), 'utf8'),
) as Record<'isEmail' | 'isURL' | 'isUUID', string[]>;

function outcome(check: (value: string) => boolean, value: string): string {
  try {
    return check(value) ? 'valid' : 'invalid';
  } catch (error) {
    return `throws ${(error as Error).name}: ${(error as Error).message}`;
  }
}

interface Rule {
  readonly name: 'isEmail' | 'isURL' | 'isUUID';
  readonly ruleName: string;
  readonly reference: (value: string) => boolean;
  readonly fast: (value: string) => boolean;
}

const RULES: readonly Rule[] = [
  { name: 'isEmail', ruleName: 'isEmail', reference: (value) => isEmail(value, undefined), fast: isEmailDefault },
  { name: 'isURL', ruleName: 'isUrl', reference: (value) => isURL(value, undefined), fast: isUrlDefault },
  { name: 'isUUID', ruleName: 'isUuid', reference: (value) => isUUID(value, undefined), fast: isUuidDefault },
];

function disagreements(
  rule: Rule,
  inputs: Iterable<string>,
): Array<{ input: string; fast: string; reference: string }> {
  const found: Array<{ input: string; fast: string; reference: string }> = [];
  for (const input of inputs) {
    const fast = outcome(rule.fast, input);
    const reference = outcome(rule.reference, input);
    if (fast !== reference) found.push({ input, fast, reference });
  }
  return found;
}

// --- generators biased toward each grammar -------------------------------------------------------------------------

const join0 = (parts: readonly string[]): string => parts.join('');
const piecesOf = (alphabet: readonly string[], minLength: number, maxLength: number): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom(...alphabet), { minLength, maxLength }).map(join0);

/** Characters each grammar treats specially, and ones around the edges of its Unicode ranges. */
const TRICKY = [
  '.',
  '@',
  '"',
  '\\',
  ' ',
  '\t',
  '\n',
  '\r',
  '(',
  ')',
  '<',
  '>',
  '[',
  ']',
  ':',
  ';',
  ',',
  '%',
  '#',
  '?',
  '/',
  '_',
  '-',
  '+',
  '*',
  '\u0000',
  '\u001f',
  '\u007f',
  '\u0080',
  '\u009f',
  '\u00a0',
  '\u00a1',
  '\u00a8',
  '\u00a9',
  '\u00aa',
  'ü',
  '端',
  'к',
  '\u1680',
  '\u2028',
  '\u3000',
  '\ud7ff',
  '\ud800',
  '\udc00',
  '\ud83d\ude00',
  '\ue000',
  '\uf8ff',
  '\uf900',
  '\ufdcf',
  '\ufdd0',
  '\ufdef',
  '\ufdf0',
  '\ufeff',
  '\uff01',
  '\uff5e',
  '\uff5f',
  '\uffef',
  '\ufff0',
  '\uffff',
  'ſ',
  'K',
  'ı',
  'İ',
];
const ASCII_LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('');
const DIGITS = '0123456789'.split('');
const ATOM_SPECIALS = "!#$%&'*+-/=?^_`{|}~".split('');
const HEX = '0123456789abcdefABCDEFgG'.split('');

const repeated = (unit: string, min: number, max: number): fc.Arbitrary<string> =>
  fc.integer({ min, max }).map((count) => unit.repeat(count));

const atom = fc.oneof(
  { weight: 6, arbitrary: piecesOf([...ASCII_LETTERS, ...DIGITS, ...ATOM_SPECIALS], 1, 12) },
  { weight: 3, arbitrary: piecesOf([...ASCII_LETTERS, ...DIGITS, ...ATOM_SPECIALS, ...TRICKY], 0, 8) },
  { weight: 1, arbitrary: repeated('a', 60, 70) },
);
const quoted = fc
  .tuple(piecesOf([...ASCII_LETTERS, ' ', '\\', '"', '\\"', '\\@', '@', ...TRICKY], 0, 10))
  .map(([inner]) => `"${inner}"`);
const localPart = fc.oneof(
  { weight: 5, arbitrary: fc.array(atom, { minLength: 1, maxLength: 4 }).map((atoms) => atoms.join('.')) },
  { weight: 2, arbitrary: quoted },
  { weight: 1, arbitrary: fc.constantFrom('', '.', '..', '"', '""', '"a', 'a"', '.a', 'a.') },
);
const label = fc.oneof(
  { weight: 6, arbitrary: piecesOf([...ASCII_LETTERS, ...DIGITS, '-'], 1, 12) },
  { weight: 2, arbitrary: piecesOf([...ASCII_LETTERS, ...DIGITS, '-', '_', ...TRICKY], 0, 6) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'xn--',
      'xn--p1ai',
      'xn--froschgrn-x9a',
      'müller',
      'кулік',
      'ｇｍａｉｌ',
      '-a',
      'a-',
      '_a',
      'a_b',
      '',
    ),
  },
  { weight: 1, arbitrary: repeated('b', 60, 66) },
);
const tld = fc.oneof(
  { weight: 5, arbitrary: piecesOf(ASCII_LETTERS, 1, 6) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'com',
      'co',
      'c',
      'xn--p1ai',
      'xn--j1amh',
      'xn-',
      'укр',
      'ü',
      'üü',
      '123',
      '1a',
      'a1',
      'co m',
      'co\u3000m',
      'co\u00a0',
      'c\ufeffo',
      'c©',
      '',
    ),
  },
  { weight: 2, arbitrary: piecesOf([...ASCII_LETTERS, ...DIGITS, ...TRICKY], 0, 4) },
);
const ipv4 = fc
  .tuple(
    ...[0, 1, 2, 3].map(() =>
      fc.oneof(fc.integer({ min: 0, max: 255 }).map(String), fc.constantFrom('256', '300', '01', '00', '-1', '')),
    ),
  )
  .map((parts) => parts.join('.'));
const ipv6 = fc.oneof(
  fc.array(piecesOf(HEX, 0, 5), { minLength: 2, maxLength: 9 }).map((groups) => groups.join(':')),
  fc.constantFrom(
    '::1',
    '::',
    '1080::8:800:200C:417A',
    '::FFFF:129.144.52.38',
    '::192.9.5.5',
    'fe80::1%eth0',
    'fe80::1%',
    '2010:836B:4179::836B:4179',
    ':::',
    '1::2::3',
  ),
);
const domain = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .tuple(fc.array(label, { minLength: 0, maxLength: 4 }), tld, fc.constantFrom('', '', '', '.'))
      .map(([labels, top, trailing]) => [...labels, top].join('.') + trailing),
  },
  { weight: 1, arbitrary: ipv4 },
  { weight: 1, arbitrary: fc.oneof(ipv4, ipv6).map((address) => `[${address}]`) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(repeated('a', 60, 63), fc.integer({ min: 3, max: 5 }))
      .map(([part, count]) => `${Array(count).fill(part).join('.')}.com`),
  },
);
const emailInput = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .tuple(localPart, fc.constantFrom('@', '@', '@', '@@', ''), domain)
      .map(([local, at, host]) => `${local}${at}${host}`),
  },
  { weight: 1, arbitrary: fc.tuple(localPart, domain, localPart, domain).map(([a, b, c, d]) => `${a}@${b}@${c}@${d}`) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('Name ', '"Name" ', ''), localPart, domain)
      .map(([name, local, host]) => `${name}<${local}@${host}>`),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
);

const protocol = fc.constantFrom(
  'http',
  'https',
  'ftp',
  'HTTP',
  'HtTpS',
  'FTP',
  'javascript',
  'JaVaScRiPt',
  'mailto',
  'data',
  'xyz',
  'rtmp',
  'file',
  'h',
  'a+b.c-d',
  '1http',
  '',
);
const separator = fc.constantFrom('://', '://', '://', ':', ':/', '//', '', ':///', '////');
const auth = fc.oneof(
  { weight: 4, arbitrary: fc.constant('') },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        piecesOf([...ASCII_LETTERS, ...DIGITS, '-', '_', '.', '%', '%61'], 0, 6),
        fc.constantFrom('', ':', ':pass', '::', ':a:b'),
      )
      .map(([user, rest]) => `${user}${rest}@`),
  },
  {
    weight: 1,
    arbitrary: piecesOf([...ASCII_LETTERS, ':', '@', ' ', '%2F', ';', '(', ')', ...TRICKY], 0, 6).map(
      (text) => `${text}@`,
    ),
  },
);
const port = fc.oneof(
  { weight: 5, arbitrary: fc.constant('') },
  {
    weight: 3,
    arbitrary: fc
      .oneof(
        fc.integer({ min: 0, max: 70000 }).map(String),
        fc.constantFrom(
          '',
          '0',
          '00080',
          '65535',
          '65536',
          'abc',
          '8a',
          '+80',
          '-1',
          '1e3',
          ' 80',
          '80:80',
          '99999999999999999999',
        ),
      )
      .map((text) => `:${text}`),
  },
);
const urlHost = fc.oneof(
  { weight: 6, arbitrary: domain.filter((text) => !text.startsWith('[')) },
  { weight: 1, arbitrary: ipv4 },
  { weight: 1, arbitrary: ipv6.map((address) => `[${address}]`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'localhost',
      '*.foo.com',
      '!.foo.com',
      'com',
      '',
      '.com',
      'foo_bar.com',
      'evil.com@example.com',
    ),
  },
);
const pathPart = fc.oneof(
  { weight: 3, arbitrary: fc.constant('') },
  {
    weight: 3,
    arbitrary: piecesOf([...ASCII_LETTERS, '/', '%2F', '%', '~', '@', ':', '.', '-', '(', ')', "'", '$'], 1, 10).map(
      (text) => `/${text}`,
    ),
  },
  { weight: 1, arbitrary: piecesOf(['/', ' ', '<', '>', '\t', 'x', ...TRICKY], 1, 5) },
);
const query = fc.oneof(
  fc.constant(''),
  fc.constant(''),
  fc.constantFrom('?', '?q=%2F', '?a=b&c=d', '?ref=http://x.com', '? lol', '?@x.com'),
);
const fragment = fc.oneof(fc.constant(''), fc.constant(''), fc.constantFrom('#', '#x', '#/foo/bar', '# lol', '#a@b:c'));
const urlInput = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .tuple(
        fc.oneof(
          fc.tuple(protocol, separator).map(([scheme, sep]) => scheme + sep),
          fc.constant(''),
          fc.constant('//'),
        ),
        auth,
        urlHost,
        port,
        pathPart,
        query,
        fragment,
      )
      .map((parts) => parts.join('')),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('http://foobar.com/', 'foobar.com/'), fc.integer({ min: 2060, max: 2075 }))
      .map(([start, length]) => start + 'f'.repeat(length - start.length)),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
);

const hexGroup = (length: number): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 8, arbitrary: piecesOf('0123456789abcdefABCDEF'.split(''), length, length) },
    { weight: 1, arbitrary: piecesOf(HEX, length - 1, length + 1) },
  );
const uuidInput = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .tuple(
        hexGroup(8),
        hexGroup(4),
        fc.constantFrom(...'0123456789abcdefABCDEF'.split('')),
        hexGroup(3),
        fc.constantFrom(...'0123456789abcdefABCDEFg'.split('')),
        hexGroup(3),
        hexGroup(12),
        fc.constantFrom('-', '-', '-', '', '_'),
      )
      .map(([a, b, version, c, variant, d, e, dash]) => `${a}${dash}${b}-${version}${c}-${variant}${d}-${e}`),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        '00000000-0000-0000-0000-000000000000',
        'ffffffff-ffff-ffff-ffff-ffffffffffff',
        'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
        'fffffffF-ffff-ffff-ffff-ffffffffffff',
        '00000000-0000-0000-0000-000000000001',
      )
      .chain((base) => fc.constantFrom(base, `${base}\n`, ` ${base}`, base.toUpperCase())),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
);

const GENERATORS: Record<Rule['name'], fc.Arbitrary<string>> = {
  isEmail: emailInput,
  isURL: urlInput,
  isUUID: uuidInput,
};

/** One edit (insert, delete, replace) of a valid input, at any position, with a character the grammar cares about. */
function mutations(valid: readonly string[]): fc.Arbitrary<string> {
  const characters = [...TRICKY, ...ASCII_LETTERS.slice(0, 6), '0', '9', '-'];
  return fc
    .tuple(
      fc.constantFrom(...valid),
      fc.nat(),
      fc.constantFrom('insert', 'delete', 'replace'),
      fc.constantFrom(...characters),
      fc.integer({ min: 1, max: 3 }),
    )
    .map(([text, position, edit, character, times]) => {
      let result = text;
      for (let time = 0; time < times; time++) {
        const at = result.length === 0 ? 0 : (position * (time + 1)) % (result.length + 1);
        if (edit === 'insert') result = result.slice(0, at) + character + result.slice(at);
        else if (edit === 'delete') result = result.slice(0, at) + result.slice(at + 1);
        else result = result.slice(0, at) + character + result.slice(at + 1);
      }
      return result;
    });
}

describe('exact fast validator.js rules (default options) against validator.js', () => {
  it("uses the fast implementations for the rules without options, and class-validator's for any option", () => {
    for (const rule of RULES) {
      const fast = fastRuleFor(rule.ruleName, [undefined]);
      expect(fast).toBeDefined();
      expect(fast!(42)).toBe(false);
      expect(fast!(null)).toBe(false);
      expect(fast!(['a@b.co'])).toBe(false);
    }
    expect(fastRuleFor('isEmail', [{ allow_display_name: true }])).toBeUndefined();
    expect(fastRuleFor('isEmail', [{ host_blacklist: ['example.com'] }])).toBeUndefined();
    expect(fastRuleFor('isEmail', [{ require_tld: true, unknown_option: 1 }])).toBeUndefined();
    expect(
      fastRuleFor('isEmail', [Object.assign(Object.create({ allow_display_name: true }) as object, {})]),
    ).toBeUndefined();
    expect(fastRuleFor('isEmail', [{ allow_display_name: false }, 'extra'])).toBeUndefined();
    expect(fastRuleFor('isUuid', ['4'])).toBeUndefined();
    expect(fastRuleFor('isUrl', [{ require_protocol: true }])).toBeUndefined();
    expect(fastRuleFor('isAlpha', [undefined])).toBeUndefined();
  });

  it("takes an isEmail options object that holds only validator.js's defaults (`@IsEmail({})`) as no options", () => {
    // validator.js merges its defaults into the very object class-validator passes: after the first call `{}` holds them.
    const filled = {};
    expect(isEmail('a@b.co', filled)).toBe(true);
    expect(Object.keys(filled).length).toBeGreaterThan(5);
    for (const options of [{}, Object.create(null) as object, { require_tld: true, host_whitelist: [] }, filled]) {
      const fast = fastRuleFor('isEmail', [options]);
      expect(fast).toBeDefined();
      const differing = edgeCases.isEmail.filter(
        (input) => outcome(fast!, input) !== outcome((value) => isEmail(value, { ...options }), input),
      );
      expect(differing).toEqual([]);
    }
  });

  for (const rule of RULES) {
    describe(rule.name, () => {
      it(`agrees on validator.js's own test inputs (${edgeCases[rule.name].length} inputs, valid and invalid of every option set)`, () => {
        const inputs = edgeCases[rule.name];
        expect(inputs.length).toBeGreaterThan(40);
        expect(disagreements(rule, inputs)).toEqual([]);
        // The lists hold both answers, so the comparison is not one-sided.
        const answers = new Set(inputs.map((input) => outcome(rule.reference, input)));
        expect(answers.has('valid') && answers.has('invalid')).toBe(true);
      });

      it(`agrees on ${RANDOM_RUNS.toLocaleString('en-US')} generated inputs and ${MUTATION_RUNS.toLocaleString('en-US')} mutations of valid ones (fixed seed)`, () => {
        const generated = fc.sample(GENERATORS[rule.name], { seed: SEED, numRuns: RANDOM_RUNS });
        const valid = edgeCases[rule.name].filter((input) => outcome(rule.reference, input) === 'valid');
        const mutated = fc.sample(mutations(valid), { seed: SEED + 1, numRuns: MUTATION_RUNS });
        const all = [...generated, ...mutated];
        expect(disagreements(rule, all)).toEqual([]);
        // The generators reach both answers often enough to mean something.
        const validCount = all.filter((input) => outcome(rule.reference, input) === 'valid').length;
        expect(validCount).toBeGreaterThan(all.length * 0.05);
        expect(all.length - validCount).toBeGreaterThan(all.length * 0.05);
      });
    });
  }

  it('throws what validator.js throws for a lone surrogate in an e-mail local part', () => {
    const input = '\ud800x@example.com';
    expect(outcome(isEmailDefault, input)).toBe(outcome((value) => isEmail(value, undefined), input));
  });
});

/**
 * `isEmailDefault`'s ASCII fast path (`isPlainAsciiEmail`: the lengths, then one regular expression) answers `true`
 * for plain ASCII addresses and hands everything else to the full implementation. Sound: it never says `true` where
 * validator.js says anything else. Complete for its class: every ASCII address with an unquoted local part and a
 * domain of at most 63 characters that validator.js accepts takes it (so the common case is fast). Inputs:
 * plain-address-shaped ASCII biased toward its boundaries (64-character local parts, 63/64-character labels, hyphens
 * at label edges, `xn` TLDs, empty atoms and labels, digits in the TLD), the general e-mail generator and mutations
 * of valid addresses.
 */
describe('isEmail: the ASCII fast path against validator.js', () => {
  const ATOM_ASCII = [...ASCII_LETTERS, ...DIGITS, ...ATOM_SPECIALS];
  const LABEL_ASCII = [...ASCII_LETTERS, ...DIGITS, '-'];
  const plainAtom = fc.oneof(
    { weight: 8, arbitrary: piecesOf(ATOM_ASCII, 1, 10) },
    { weight: 1, arbitrary: piecesOf([...ATOM_ASCII, '.', '"', ' ', '@', '(', '\\', ','], 0, 4) },
    { weight: 1, arbitrary: fc.integer({ min: 60, max: 66 }).map((count) => 'u'.repeat(count)) },
  );
  const plainLabel = fc.oneof(
    { weight: 8, arbitrary: piecesOf(LABEL_ASCII, 1, 10) },
    { weight: 1, arbitrary: piecesOf([...LABEL_ASCII, '_', '.', ' ', '*'], 0, 4) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 61, max: 65 }), fc.constantFrom('', '-', '1'))
        .map(([count, edge]) => `${edge}${'d'.repeat(count)}${edge}`),
    },
  );
  const plainTld = fc.oneof(
    { weight: 6, arbitrary: piecesOf(ASCII_LETTERS, 0, 5) },
    {
      weight: 2,
      arbitrary: fc.constantFrom('xn--p1ai', 'XN--P1AI', 'xn1a', 'xn-a', 'xnab', 'xn--', 'xn-', 'xn', 'x-'),
    },
    { weight: 2, arbitrary: piecesOf(LABEL_ASCII, 1, 5) },
    { weight: 1, arbitrary: fc.integer({ min: 62, max: 65 }).map((count) => 't'.repeat(count)) },
  );
  const plainAddress = fc
    .tuple(
      fc.array(plainAtom, { minLength: 1, maxLength: 4 }),
      fc.constantFrom('@', '@', '@', '@', '', '@@', '.@', '@.'),
      fc.array(plainLabel, { minLength: 0, maxLength: 4 }),
      plainTld,
    )
    .map(([atoms, at, labels, top]) => `${atoms.join('.')}${at}${[...labels, top].join('.')}`);

  it('says true only where validator.js does, and for every unquoted ASCII address it accepts (fixed seed)', () => {
    const valid = edgeCases.isEmail.filter((input) => outcome((value) => isEmail(value, undefined), input) === 'valid');
    const inputs = [
      ...fc.sample(plainAddress, { seed: SEED + 2, numRuns: 30_000 }),
      ...fc.sample(emailInput, { seed: SEED + 3, numRuns: 10_000 }),
      ...fc.sample(mutations([...valid, 'user1@example.com', 'a.b-c@x-y.example.co']), {
        seed: SEED + 4,
        numRuns: 10_000,
      }),
    ];
    const wrong: Array<{ input: string; fast: boolean; reference: string }> = [];
    let fastTrue = 0;
    let fastFalse = 0;
    for (const input of inputs) {
      const reference = outcome((value) => isEmail(value, undefined), input);
      const fast = input.length <= 254 && isPlainAsciiEmail(input);
      if (fast) fastTrue++;
      else if (reference === 'valid') fastFalse++;
      // Sound: true only where validator.js says valid. Complete: every plain ASCII address it accepts.
      const plainAscii =
        /^[\x20-\x7e]*$/.test(input) && !input.startsWith('"') && input.length - input.lastIndexOf('@') <= 64;
      if (fast ? reference !== 'valid' : reference === 'valid' && plainAscii) wrong.push({ input, fast, reference });
      // And the whole function still agrees.
      if (outcome(isEmailDefault, input) !== reference) wrong.push({ input, fast, reference });
    }
    expect(wrong).toEqual([]);
    // Both answers are well represented: the fast path took many addresses, and many were refused by it.
    expect(fastTrue).toBeGreaterThan(inputs.length * 0.1);
    expect(inputs.length - fastTrue - fastFalse).toBeGreaterThan(inputs.length * 0.2);
  });
});
