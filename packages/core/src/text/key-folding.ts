import type unhomoglyphFunction from 'unhomoglyph';

let unhomoglyph: typeof unhomoglyphFunction | undefined;

/**
 * unhomoglyph (Unicode's confusables.txt as about 100 KB of JSON, some 20 ms of CPU to load), required on the first key
 * that needs folding rather than when @toolwright/core is imported: most processes never see such a key.
 */
function confusablePrototypes(text: string): string {
  unhomoglyph ??= require('unhomoglyph') as typeof unhomoglyphFunction;
  return unhomoglyph(text);
}

/**
 * Code points that render as nothing, from Unicode's own data (the regular expression properties are backed by the
 * engine's Unicode tables): every Default_Ignorable_Code_Point (zero-width characters, joiners, soft hyphen, bidi
 * controls, variation selectors U+FE00-U+FE0F and U+E0100-U+E01EF, tag characters U+E0000-U+E0FFF, musical formatting
 * U+1D173-U+1D17A, Hangul fillers) and every control character (U+0000-U+001F, U+007F-U+009F).
 */
export const INVISIBLE_CODE_POINT = /[\p{Default_Ignorable_Code_Point}\p{Cc}]/u;
const INVISIBLE_CODE_POINTS = /[\p{Default_Ignorable_Code_Point}\p{Cc}]/gu;

/**
 * Separators a reader takes for a word break in a key: folded like `_` (removed, as the key matching does). `\u00b7` is
 * the middle dot (·), written as an escape so core's bundle stays ASCII (decision 0027).
 */
const SEPARATORS = /[\p{White_Space}/:\u00b7._-]/gu;

/**
 * Keys of ASCII letters, digits, `_`, `-`, `.` and spaces only: they hold no invisible code point, no separator the
 * key matching does not know and no letter of another script, so they imitate nothing (they are a name, in some case
 * and separator style, or another word).
 */
const PLAIN_KEY = /^[A-Za-z0-9_. -]*$/;

/**
 * A key's UTS #39 skeleton, in lower case, without separators: invisible code points removed, then NFD, each code
 * point mapped to its confusable prototype (the `unhomoglyph` package's copy of Unicode's confusables.txt), NFD again;
 * then lower case and without separators (`/ : · . -`, `_` and white space, U+2028/U+2029 included).
 */
export function foldKey(key: string): string {
  const visible = key.replace(INVISIBLE_CODE_POINTS, '');
  return confusablePrototypes(visible.normalize('NFD')).normalize('NFD').toLowerCase().replace(SEPARATORS, '');
}

/**
 * The folds under which two keys that look alike are equal (compare every fold of a key with `foldKey` of the
 * name): the key as sent, in lower case (the skeleton is case-sensitive: `Ⅰ` and `l` share one, `І` and `i` another),
 * and both again after NFKC (compatibility forms confusables.txt leaves out). `ｓｅｓｓｉｏｎ＿ｉｄ`,
 * `sess\u200bion_id`, `ѕеѕѕіоn_іd`, `SESSІON_ID` and `session/id` each have a fold equal to the fold of `session_id`.
 */
export function keyFolds(key: string): string[] {
  const compatible = key.normalize('NFKC');
  const folds = new Set([
    foldKey(key),
    foldKey(key.toLowerCase()),
    foldKey(compatible),
    foldKey(compatible.toLowerCase()),
  ]);
  return [...folds];
}

/**
 * The cheap pre-check that keeps folding off the path of ordinary keys: false for a plain key (see PLAIN_KEY), which
 * the case-and-separator matching already judges; true when the key must be folded to be compared.
 */
export function needsFolding(key: string): boolean {
  return !PLAIN_KEY.test(key);
}
