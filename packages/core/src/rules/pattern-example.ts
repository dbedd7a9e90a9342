import { compilePatternMatcher } from '../schema/pattern-engine';

/**
 * An example string that a `pattern` (an ECMAScript regular expression, `u` flag, unanchored, as JSON Schema reads it)
 * matches, for the model-facing messages (`Example: "A-1"` for `^[A-Z]-\d+$`), or `undefined`: never an example the
 * pattern refuses.
 *
 * The common subset is generated: literals and escapes (`\d \w \s`, `\.`, `\t`, `\uXXXX`, `\u{...}`, `\xHH`), `.`,
 * character classes with ranges and negation, groups (capturing, `(?:...)`, named) and alternation (the first
 * alternative), quantifiers (`?` and `*` none or one, `+` one, `{n}`, `{n,}` and `{n,m}` n times; lazy or not) and the
 * anchors `^` and `$`. Anything else (lookaround, backreferences, word boundaries, `\p{...}`) gives no example. One
 * pass over the pattern, nesting and length bounded; the string made is tested with the pattern by the engine that
 * enforces it (`schema/pattern-engine.ts`), and a string it refuses is not returned.
 */
export function patternExample(pattern: string): string | undefined {
  if (pattern.length > MAX_PATTERN_LENGTH) return undefined;
  for (const plural of [true, false]) {
    let example: string | undefined;
    try {
      example = new ExampleWriter(pattern, plural).write();
    } catch (error) {
      if (error instanceof NoExample) return undefined;
      throw error;
    }
    if (example !== undefined && matches(pattern, example)) return example;
  }
  return undefined;
}

/** Longest pattern an example is made for. */
const MAX_PATTERN_LENGTH = 1_000;
/** Longest example made. */
const MAX_EXAMPLE_LENGTH = 200;
/** Deepest nesting of groups followed. */
const MAX_GROUP_DEPTH = 32;

function matches(pattern: string, example: string): boolean {
  try {
    return compilePatternMatcher(pattern).test(example);
  } catch {
    return false;
  }
}

/** Thrown inside the writer for a construct outside the subset. */
class NoExample extends Error {}

/** The character a class escape or `.` stands for in an example. */
const CLASS_ESCAPES: Readonly<Record<string, string>> = { d: '1', w: 'a', s: ' ', D: 'a', W: '-', S: 'a' };
/** Single-character escapes and what they stand for. */
const CHARACTER_ESCAPES: Readonly<Record<string, string>> = { t: '\t', n: '\n', r: '\r', f: '\f', v: '\v', 0: '\0' };
/** Candidates for a negated class, in order of preference. */
const NEGATED_CANDIDATES = ['a', 'x', 'A', '1', '_', '-', ' ', '.', 'z', 'Z', '0', '9'];

/**
 * A recursive-descent writer over the pattern (each character read once): `plural` writes `*` and `?` once (the
 * friendlier example), otherwise never (the shortest).
 */
class ExampleWriter {
  private at = 0;
  private depth = 0;

  constructor(
    private readonly pattern: string,
    private readonly plural: boolean,
  ) {}

  write(): string | undefined {
    const text = this.alternation();
    if (this.at !== this.pattern.length) throw new NoExample();
    return text.length > MAX_EXAMPLE_LENGTH ? undefined : text;
  }

  /** Alternatives separated by `|`: the first one's example (the others are read past). */
  private alternation(): string {
    const first = this.sequence();
    while (this.pattern[this.at] === '|') {
      this.at++;
      this.sequence();
    }
    return first;
  }

  private sequence(): string {
    let text = '';
    while (this.at < this.pattern.length && this.pattern[this.at] !== '|' && this.pattern[this.at] !== ')') {
      const atom = this.atom();
      const times = this.quantifier();
      if (atom.length * times + text.length > MAX_EXAMPLE_LENGTH) throw new NoExample();
      text += atom.repeat(times);
    }
    return text;
  }

  /** How many times the atom just read is written. */
  private quantifier(): number {
    const next = this.pattern[this.at];
    let times: number;
    if (next === '*' || next === '?') {
      this.at++;
      times = this.plural ? 1 : 0;
    } else if (next === '+') {
      this.at++;
      times = 1;
    } else if (next === '{') {
      const bounds = /^\{(\d{1,4})(,\d{0,4})?\}/.exec(this.pattern.slice(this.at, this.at + 12));
      if (bounds === null) return 1;
      this.at += bounds[0].length;
      times = Number(bounds[1]);
    } else return 1;
    if (this.pattern[this.at] === '?') this.at++;
    return times;
  }

  private atom(): string {
    const character = this.pattern[this.at]!;
    switch (character) {
      case '^':
      case '$':
        this.at++;
        return '';
      case '.':
        this.at++;
        return 'a';
      case '(':
        return this.group();
      case '[':
        return this.characterClass();
      case '\\':
        return this.escape(false);
      case '*':
      case '+':
      case '?':
      case '{':
      case '}':
      case ']':
        throw new NoExample();
      default: {
        // One code point (a surrogate pair is one character of the example).
        const codePoint = this.pattern.codePointAt(this.at)!;
        const text = String.fromCodePoint(codePoint);
        this.at += text.length;
        return text;
      }
    }
  }

  private group(): string {
    if (++this.depth > MAX_GROUP_DEPTH) throw new NoExample();
    this.at++;
    if (this.pattern[this.at] === '?') {
      const kind = this.pattern[this.at + 1];
      if (kind === ':') this.at += 2;
      else if (kind === '<' && /[A-Za-z_$]/.test(this.pattern[this.at + 2] ?? '')) {
        const close = this.pattern.indexOf('>', this.at);
        if (close === -1) throw new NoExample();
        this.at = close + 1;
      } else throw new NoExample(); // lookaround
    }
    const text = this.alternation();
    if (this.pattern[this.at] !== ')') throw new NoExample();
    this.at++;
    this.depth--;
    return text;
  }

  /** An escape outside or (`inClass`) inside a class: the character it stands for. */
  private escape(inClass: boolean): string {
    const next = this.pattern[this.at + 1];
    if (next === undefined) throw new NoExample();
    this.at += 2;
    if (CLASS_ESCAPES[next] !== undefined) return CLASS_ESCAPES[next];
    if (CHARACTER_ESCAPES[next] !== undefined) return CHARACTER_ESCAPES[next];
    if (next === 'b' && inClass) return '\b';
    if (next === 'u' || next === 'x') {
      const hex =
        next === 'x'
          ? /^[0-9a-fA-F]{2}/.exec(this.pattern.slice(this.at, this.at + 2))
          : /^(?:\{([0-9a-fA-F]{1,6})\}|[0-9a-fA-F]{4})/.exec(this.pattern.slice(this.at, this.at + 8));
      if (hex === null) throw new NoExample();
      this.at += hex[0].length;
      const codePoint = parseInt(hex[1] ?? hex[0], 16);
      if (codePoint > 0x10ffff) throw new NoExample();
      return String.fromCodePoint(codePoint);
    }
    // Word boundaries, backreferences, Unicode properties, control escapes: outside the subset.
    if (/[A-Za-z0-9]/.test(next)) throw new NoExample();
    return next;
  }

  /** `[...]`: a member (a range's first character), or for `[^...]` a candidate it leaves out. */
  private characterClass(): string {
    this.at++;
    const negated = this.pattern[this.at] === '^';
    if (negated) this.at++;
    const members: Array<readonly [string, string]> = [];
    const escapedClasses: string[] = [];
    let first = true;
    while (this.at < this.pattern.length && (this.pattern[this.at] !== ']' || first)) {
      first = false;
      let low: string;
      if (this.pattern[this.at] === '\\') {
        const escaped = this.pattern[this.at + 1] ?? '';
        low = this.escape(true);
        if (CLASS_ESCAPES[escaped] !== undefined) {
          escapedClasses.push(escaped);
          continue;
        }
      } else {
        low = String.fromCodePoint(this.pattern.codePointAt(this.at)!);
        this.at += low.length;
      }
      let high = low;
      if (this.pattern[this.at] === '-' && this.pattern[this.at + 1] !== ']' && this.at + 1 < this.pattern.length) {
        this.at++;
        if (this.pattern[this.at] === '\\') high = this.escape(true);
        else {
          high = String.fromCodePoint(this.pattern.codePointAt(this.at)!);
          this.at += high.length;
        }
      }
      members.push([low, high]);
    }
    if (this.pattern[this.at] !== ']') throw new NoExample();
    this.at++;
    if (!negated) {
      // A letter or digit when the class has one (`[\w.-]` gives `a`), else its first member.
      const options = [...escapedClasses.map((escaped) => CLASS_ESCAPES[escaped]!), ...members.map(([low]) => low)];
      if (options.length === 0) throw new NoExample();
      return options.find((option) => /^[A-Za-z0-9]$/.test(option)) ?? options[0]!;
    }
    const excluded = (candidate: string) =>
      members.some(([low, high]) => candidate >= low && candidate <= high) ||
      escapedClasses.some((escaped) => new RegExp(`\\${escaped}`, 'u').test(candidate));
    const candidate = NEGATED_CANDIDATES.find((option) => !excluded(option));
    if (candidate === undefined) throw new NoExample();
    return candidate;
  }
}
