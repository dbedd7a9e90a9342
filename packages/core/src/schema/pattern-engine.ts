import type { RE2JS } from 're2js';

/**
 * How toolwright runs a JSON Schema `pattern` (an ECMAScript regular expression, unanchored, `u` flag).
 *
 * Every pattern the linear-time engine (RE2, the `re2js` port) can express runs on it, whatever its source, so a
 * pattern that reaches the pipeline from an untrusted schema can never backtrack (see
 * docs/decisions/0007-linear-time-patterns.md). The ECMAScript spelling is translated first (`\uXXXX`, `\s`, `.`,
 * `\cX`), so the matches are the ones `new RegExp(pattern, 'u')` gives. A pattern RE2 cannot express (lookaround,
 * backreferences) is refused when the schema is untrusted, and runs on the backtracking engine only when a developer
 * wrote it. Either way the string it runs on is capped at `MAX_PATTERN_SUBJECT_LENGTH` characters.
 */
export interface PatternMatcher {
  /** The pattern as written (ECMAScript syntax). */
  readonly source: string;
  /** `'linear'`: RE2, time linear in the input. `'backtracking'`: the JavaScript engine (developer patterns only). */
  readonly engine: 'linear' | 'backtracking';
  /** Whether the pattern matches somewhere in `value`; false for a string longer than the subject cap. */
  test(value: string): boolean;
}

let re2js: typeof RE2JS | undefined;

/**
 * re2js, required on the first pattern compiled rather than when @toolwright/core is imported: one large module that
 * most tool sets, without a `pattern`, never run (measured in docs/decisions/0030-lazy-startup.md).
 */
function linearEngine(): typeof RE2JS {
  re2js ??= (require('re2js') as typeof import('re2js')).RE2JS;
  return re2js;
}

/** Longest string (in UTF-16 code units) a pattern is run on; a longer one does not match (and is refused). */
export const MAX_PATTERN_SUBJECT_LENGTH = 100_000;

/** ECMAScript's `\s` (WhiteSpace and LineTerminator), spelled for RE2, whose `\s` is ASCII only. */
const WHITESPACE_RANGES =
  '\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}';
/** ECMAScript's `.` without the `s` flag: anything but a line terminator (RE2's `.` excludes only `\n`). */
const ANY_BUT_LINE_TERMINATOR = '[^\\n\\r\\x{2028}\\x{2029}]';

/** Escapes with one meaning in both syntaxes (`k` and digits are backreferences, which RE2 then refuses). */
const SAME_ESCAPES: ReadonlySet<string> = new Set([...'dDwWbBnrtfv0pPxk']);

/** Thrown by `translateToRe2` for a construct with no RE2 spelling. */
export class UnsupportedByLinearEngine extends Error {}

/** The end (exclusive) of the hex digits of a `\u` escape at `index`, and the code point's hex, or undefined. */
function unicodeEscape(pattern: string, index: number): { readonly end: number; readonly hex: string } | undefined {
  if (pattern[index + 2] === '{') {
    const close = pattern.indexOf('}', index + 3);
    const hex = close === -1 ? '' : pattern.slice(index + 3, close);
    return /^[0-9a-fA-F]{1,6}$/.test(hex) ? { end: close + 1, hex } : undefined;
  }
  const hex = pattern.slice(index + 2, index + 6);
  return /^[0-9a-fA-F]{4}$/.test(hex) ? { end: index + 6, hex } : undefined;
}

/**
 * An ECMAScript (`u` flag) pattern in RE2 syntax with the same matches. Throws `UnsupportedByLinearEngine` for what RE2
 * cannot say; anything else RE2 rejects (lookaround, backreferences) fails when RE2 compiles the result.
 */
export function translateToRe2(pattern: string): string {
  let output = '';
  let inClass = false;
  let index = 0;
  while (index < pattern.length) {
    const character = pattern[index]!;
    if (character === '\\') {
      const letter = pattern[index + 1];
      if (letter === undefined) throw new UnsupportedByLinearEngine('a trailing backslash');
      if (letter === 'u') {
        const escape = unicodeEscape(pattern, index);
        if (escape === undefined) throw new UnsupportedByLinearEngine('a malformed \\u escape');
        output += `\\x{${escape.hex}}`;
        index = escape.end;
        continue;
      }
      if (letter === 'c') {
        const control = pattern[index + 2];
        if (control === undefined || !/[A-Za-z]/.test(control))
          throw new UnsupportedByLinearEngine('a malformed \\c escape');
        output += `\\x{${(control.charCodeAt(0) % 32).toString(16)}}`;
        index += 3;
        continue;
      }
      if (letter === 's') output += inClass ? WHITESPACE_RANGES : `[${WHITESPACE_RANGES}]`;
      else if (letter === 'S') {
        if (inClass) throw new UnsupportedByLinearEngine('\\S inside a character class');
        output += `[^${WHITESPACE_RANGES}]`;
      } else if (letter === 'b' && inClass) output += '\\x{08}';
      else if (/[A-Za-z]/.test(letter) && !SAME_ESCAPES.has(letter))
        output += letter; // an identity escape (no `u` flag)
      else output += `\\${letter}`;
      index += 2;
      continue;
    }
    if (inClass) {
      if (character === ']') inClass = false;
      // A `[` inside a class is a literal in ECMAScript; RE2 would read `[:alpha:]` as a POSIX class.
      output += character === '[' ? '\\[' : character;
    } else if (character === '[') {
      inClass = true;
      output += character;
      if (pattern[index + 1] === '^') {
        output += '^';
        index += 1;
      }
      // ECMAScript's `[]` matches nothing and `[^]` anything; RE2 reads a `]` first in a class as a literal.
      if (pattern[index + 1] === ']') throw new UnsupportedByLinearEngine('an empty character class');
    } else if (character === '.') {
      output += ANY_BUT_LINE_TERMINATOR;
    } else {
      output += character;
    }
    index += 1;
  }
  return output;
}

/** Why a pattern cannot run on the linear-time engine, or undefined when it can. */
export function linearEngineProblem(pattern: string): string | undefined {
  if (matchers.get(pattern)?.engine === 'linear') return undefined;
  try {
    linearEngine().compile(translateToRe2(pattern));
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function linearMatcher(pattern: string): PatternMatcher | undefined {
  let compiled: RE2JS;
  try {
    compiled = linearEngine().compile(translateToRe2(pattern));
  } catch {
    return undefined;
  }
  return {
    source: pattern,
    engine: 'linear',
    test: (value) => value.length <= MAX_PATTERN_SUBJECT_LENGTH && compiled.test(value),
  };
}

function backtrackingMatcher(pattern: string): PatternMatcher {
  let expression: RegExp;
  try {
    expression = new RegExp(pattern, 'u');
  } catch {
    expression = new RegExp(pattern);
  }
  return {
    source: pattern,
    engine: 'backtracking',
    test: (value) => value.length <= MAX_PATTERN_SUBJECT_LENGTH && expression.test(value),
  };
}

/** The refusal sentence for a string too long to run a pattern on, or undefined when the length is not the reason. */
export function patternSubjectTooLong(path: string, value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length <= MAX_PATTERN_SUBJECT_LENGTH) return undefined;
  const name = path === '' ? 'The value' : `"${path}"`;
  return `${name} has ${value.length} characters; a value checked against a pattern may have at most ${MAX_PATTERN_SUBJECT_LENGTH}. Send a shorter value.`;
}

const MAX_CACHED_PATTERNS = 1_000;
const matchers = new Map<string, PatternMatcher>();

/**
 * The matcher for a pattern: linear-time when RE2 can express it, the JavaScript engine otherwise (only developer
 * patterns get there: an untrusted schema with such a pattern is refused at import). Throws on an invalid pattern.
 * Cached, at most `MAX_CACHED_PATTERNS` (oldest out first), so remote schema churn cannot grow the cache.
 */
export function compilePatternMatcher(pattern: string): PatternMatcher {
  const cached = matchers.get(pattern);
  if (cached !== undefined) return cached;
  // Validity is ECMAScript's: a pattern JavaScript rejects is rejected even if RE2 would read it.
  const backtracking = backtrackingMatcher(pattern);
  const matcher = linearMatcher(pattern) ?? backtracking;
  if (matchers.size >= MAX_CACHED_PATTERNS) matchers.delete(matchers.keys().next().value!);
  matchers.set(pattern, matcher);
  return matcher;
}

/**
 * The `RegExpEngine` shape Ajv's `code.regExp` option takes (`(pattern, flags) => { test }`): linear-time patterns
 * for schemas a remote server sent (an MCP tool's `outputSchema`). A pattern RE2 cannot express throws, so Ajv
 * refuses to compile the schema.
 */
export function linearRegExpEngine(pattern: string, flags: string): { test(value: string): boolean } {
  if (flags.replace('u', '') !== '') throw new Error(`flags "${flags}" are not supported for untrusted patterns`);
  const problem = linearEngineProblem(pattern);
  if (problem !== undefined)
    throw new Error(`the pattern ${JSON.stringify(pattern.slice(0, 80))} cannot run in linear time: ${problem}`);
  return compilePatternMatcher(pattern);
}
