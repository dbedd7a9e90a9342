import stemEnglishWord = require('wink-porter2-stemmer');

/**
 * How tool text and queries become search terms: identifiers are split (`get_current_weather`, `getCurrentWeather`,
 * `get-current-weather`, `weather.get`), unspaced scripts segmented (`北京天气` -> `北京`, `天气`), words are lowercased
 * and NFKC-normalized, English stop words and numbers dropped and the rest
 * reduced to their Porter2 stem (`calculates`, `calculation` -> `calcul`), so a query's wording meets a tool's.
 */

/** Words longer than this are kept whole, not stemmed (no real English word is; it bounds the stemmer's work). */
const MAX_STEMMED_WORD_LENGTH = 40;

/**
 * English stop words: the `eng` list of the `stopword` package (fergiemcdowall/stopword, MIT), copied rather than
 * depended on (the package ships 62 languages, 1.6 MB, for these 108 words).
 */
const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set([
  'about',
  'after',
  'all',
  'also',
  'am',
  'an',
  'and',
  'another',
  'any',
  'are',
  'as',
  'at',
  'be',
  'because',
  'been',
  'before',
  'being',
  'between',
  'both',
  'but',
  'by',
  'came',
  'can',
  'come',
  'could',
  'did',
  'do',
  'each',
  'for',
  'from',
  'get',
  'got',
  'has',
  'had',
  'he',
  'have',
  'her',
  'here',
  'him',
  'himself',
  'his',
  'how',
  'if',
  'in',
  'into',
  'is',
  'it',
  'like',
  'make',
  'many',
  'me',
  'might',
  'more',
  'most',
  'much',
  'must',
  'my',
  'never',
  'now',
  'of',
  'on',
  'only',
  'or',
  'other',
  'our',
  'out',
  'over',
  'said',
  'same',
  'should',
  'since',
  'some',
  'still',
  'such',
  'take',
  'than',
  'that',
  'the',
  'their',
  'them',
  'then',
  'there',
  'these',
  'they',
  'this',
  'those',
  'through',
  'to',
  'too',
  'under',
  'up',
  'very',
  'was',
  'way',
  'we',
  'well',
  'were',
  'what',
  'where',
  'which',
  'while',
  'who',
  'with',
  'would',
  'you',
  'your',
  'a',
  'i',
]);

/** An English word: ASCII letters, with an apostrophe inside (`don't`). */
const ENGLISH_WORD = /^[a-z]+(?:'[a-z]+)*$/;
const DIGITS = /^[0-9]+$/;
/** The possessive or contracted `'s` (`user's`, `what's`): dropped before the stop-word check, as Porter2 does. */
const POSSESSIVE = /'s$/;
const LOWERCASE = /\p{Ll}/u;
const UPPERCASE = /\p{Lu}/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
/** A combining mark: Thai and Devanagari vowel signs, tone marks, accents written apart (`e` + U+0301). */
const MARK = /\p{M}/u;

/**
 * How a character takes part in a word: 0 separates words, 1 lowercase or uncased, 2 uppercase, 3 a combining mark
 * (part of the word it follows, whose letter's case it leaves as it was).
 */
type CharacterClass = 0 | 1 | 2 | 3;

function classify(code: number, character: string): CharacterClass {
  if (code >= 97 && code <= 122) return 1; // a-z
  if (code >= 65 && code <= 90) return 2; // A-Z
  if (code >= 48 && code <= 57) return 1; // 0-9
  if (code < 128) return 0;
  if (MARK.test(character)) return 3;
  if (!LETTER_OR_DIGIT.test(character)) return 0;
  return UPPERCASE.test(character) ? 2 : 1;
}

/**
 * The lowercased words of a text or an identifier, in order. Anything but a letter, a digit or a combining mark
 * separates words (`_`, `-`, `.`, `/`, spaces, punctuation), and so do case changes: `getCurrentWeather` -> get,
 * current, weather; `HTTPServer` -> http, server; `v2Api` -> v2, api. An apostrophe before a lowercase letter stays in
 * its word (`what's`, `don't`, with `’` written `'`), so a contraction is one word rather than a word and a stray
 * letter. A word outside ASCII is NFKC-normalized, and a run of Chinese, Japanese or Thai is split into its words. One
 * pass over the text (no backtracking pattern).
 */
export function searchWords(text: string): string[] {
  const words: string[] = [];
  let start = -1;
  let previous: CharacterClass = 0;
  /** Whether the current word has a character outside ASCII (only such a word can need segmenting). */
  let wide = false;
  const end = (until: number): void => {
    if (wide) pushWide(words, word(text.slice(start, until)));
    else words.push(word(text.slice(start, until)));
  };
  for (let index = 0; index < text.length;) {
    const code = text.codePointAt(index)!;
    const width = code > 0xffff ? 2 : 1;
    const current = classify(code, code < 128 ? '' : String.fromCodePoint(code));
    if (current === 3) {
      // A mark continues its word (ช่วย is ช, a mark, ว, ย); one with no word before it is a separator.
      if (start >= 0) wide = true;
      else previous = 0;
      index += width;
      continue;
    }
    if (current === 0 && start >= 0 && isApostrophe(code) && startsLowercase(text, index + 1)) {
      // what's, don't, user's: an apostrophe between a word and a lowercase letter is part of the word.
      previous = 1;
      index += 1;
      continue;
    }
    if (current === 0) {
      if (start >= 0) end(index);
      start = -1;
    } else if (start < 0) {
      start = index;
      wide = false;
    } else if (current === 2 && (previous !== 2 || startsLowercase(text, index + width))) {
      // fooBar, v2Api: a capital after a lowercase letter or digit; HTTPServer: the last capital before a lowercase.
      end(index);
      start = index;
      wide = false;
    }
    if (current !== 0 && code >= 128) wide = true;
    previous = current;
    index += width;
  }
  if (start >= 0) end(text.length);
  return words;
}

/**
 * Scripts written without spaces between words (Chinese, Japanese, Thai, Lao, Khmer, Burmese): a run of them is split
 * into words by Unicode's word-break rules and ICU's dictionaries (`Intl.Segmenter`), as a search engine's CJK and Thai
 * analyzers do, so `北京今天的天气` is the words `北京`, `今天`, `的`, `天气` rather than one word no tool has.
 */
const UNSPACED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/** One segmenter for every search ('und': no locale's tailoring, so the words do not depend on the machine's locale). */
let wordSegmenter: Intl.Segmenter | undefined;

/**
 * A word with characters outside ASCII: NFKC-normalized (an accent typed apart, `e` + U+0301, is `é`; full-width
 * `ｗｅａｔｈｅｒ` is `weather`, as Lucene's ICU normalizer folds them), then segmented if it is in an unspaced script.
 */
function pushWide(words: string[], text: string): void {
  const normalized = text.normalize('NFKC').toLowerCase(); // NFKC can give capitals (ℌ -> H)
  if (!UNSPACED_SCRIPT.test(normalized)) {
    words.push(normalized);
    return;
  }
  wordSegmenter ??= new Intl.Segmenter('und', { granularity: 'word' });
  for (const { segment, isWordLike } of wordSegmenter.segment(normalized)) if (isWordLike === true) words.push(segment);
}

/** The right single quotation mark (`’`) is how many editors write an apostrophe. */
const TYPOGRAPHIC_APOSTROPHE = 0x2019;

function isApostrophe(code: number): boolean {
  return code === 39 || code === TYPOGRAPHIC_APOSTROPHE;
}

function word(text: string): string {
  return text.toLowerCase().replaceAll('\u2019', "'");
}

function startsLowercase(text: string, index: number): boolean {
  if (index >= text.length) return false;
  const code = text.codePointAt(index)!;
  if (code < 128) return code >= 97 && code <= 122;
  return LOWERCASE.test(String.fromCodePoint(code));
}

/** Words already reduced to their term (`undefined`: a stop word); an index keeps the one of its own vocabulary. */
export type TermCache = Map<string, string | undefined>;

/**
 * A word's search term: `undefined` for a stop word or a number (`2023`, `5`: in a query an argument's value, in a
 * tool's text an example or a version, as in `Weather_1_GetWeather`; `v2` and `base64` are words); English words
 * stemmed; other words (other scripts) as they are. With `cache`, a word it holds is not stemmed again, and a new word
 * is added to it.
 */
export function searchTerm(word: string, cache?: TermCache): string | undefined {
  if (cache !== undefined) {
    const known = cache.get(word);
    if (known !== undefined || cache.has(word)) return known;
  }
  const base = word.replace(POSSESSIVE, '');
  let term: string | undefined;
  if (base.length === 0 || DIGITS.test(base) || ENGLISH_STOP_WORDS.has(base)) term = undefined;
  else if (base.length > MAX_STEMMED_WORD_LENGTH || !ENGLISH_WORD.test(base)) term = base;
  else term = stemEnglishWord(base);
  cache?.set(word, term);
  return term;
}

/** The search terms of a text, in order (repeats kept: they count as term frequency). */
export function searchTerms(text: string, cache?: TermCache): string[] {
  const terms: string[] = [];
  for (const word of searchWords(text)) {
    const term = searchTerm(word, cache);
    if (term !== undefined) terms.push(term);
  }
  return terms;
}

/**
 * Adjacent pairs of terms (`solv quadrat`, `quadrat equat`): a query that names a tool's phrase ranks it above a
 * tool that has the same words apart. A space never occurs inside a term, so a pair never equals a single term.
 */
export function termPairs(terms: readonly string[]): string[] {
  const pairs: string[] = [];
  for (let index = 0; index + 1 < terms.length; index++) pairs.push(`${terms[index]} ${terms[index + 1]}`);
  return pairs;
}
