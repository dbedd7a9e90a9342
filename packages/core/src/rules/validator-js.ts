import { dirname } from 'node:path';
import { IPV4, IPV6_WITH_ZONE } from './format/ip';

/**
 * Exact fast implementations of the hot validator.js rules, as class-validator calls them with their default options
 * (`@IsEmail()`, `@IsUUID()`, `@IsUrl()` without arguments). validator.js merges an options object on every call,
 * measures byte lengths with `encodeURI(...).split(/%..|./)` and tests each domain label through a closure; these
 * functions are the same algorithms with the default options folded in and the same regular expressions for anything
 * beyond ASCII. `test/unit/pipeline/fast-validators.spec.ts` checks them against validator.js on validator.js's own
 * test lists and on tens of thousands of generated inputs (0 disagreements); docs/decisions/0012-fast-validator-rules.md has the measurement.
 *
 * They are exact for the validator.js version they were checked against only, so a rule gets its fast implementation
 * only when the validator.js that class-validator loads is that version (else class-validator's own rule runs).
 * A rule is recognised by the name class-validator gives it (as the shared rule table and the IR capture do).
 */

/** validator.js versions the differential test ran against. */
const VERIFIED_VALIDATOR_VERSIONS: ReadonlySet<string> = new Set(['13.15.35']);

let installedVersionVerified: boolean | undefined;

function validatorVersionVerified(): boolean {
  if (installedVersionVerified === undefined) {
    try {
      const classValidatorDirectory = dirname(require.resolve('class-validator'));
      const manifestPath = require.resolve('validator/package.json', { paths: [classValidatorDirectory] });
      const manifest = require(manifestPath) as { version?: unknown };
      installedVersionVerified =
        typeof manifest.version === 'string' && VERIFIED_VALIDATOR_VERSIONS.has(manifest.version);
    } catch {
      installedVersionVerified = false;
    }
  }
  return installedVersionVerified;
}

/**
 * The formats class-validator rules mean with their default options (`rules/format/`): `@IsEmail()` is `format: email`,
 * `@IsUUID()` is `format: uuid`. `@IsUrl()` (a web address, no scheme needed) and `@IsFQDN()` (a TLD required) mean
 * something else than `uri` and `hostname`: they keep their own meaning and are not a format.
 */
const FORMAT_OF_RULE: Readonly<Record<string, string>> = { isEmail: 'email', isUuid: 'uuid' };

/**
 * Whether a validator.js rule's constraints are its default options (`@IsEmail()`, `@IsEmail({})`, `@IsUUID()`,
 * `@IsUUID('all')`, `@IsUrl()`): the one use of the rule that means its format, and the one its fast implementation has.
 */
function defaultOptions(name: string, constraints: readonly unknown[]): boolean {
  if (constraints.length > 1) return false;
  const options = constraints[0];
  if (options === undefined || options === null) return true;
  if (name === 'isEmail') return isDefaultEmailOptions(options);
  return name === 'isUuid' && options === 'all';
}

/**
 * The format a class-validator rule means (`email` for `@IsEmail()`), or `undefined`: a rule that is no format rule,
 * or one with other options, which keeps its own meaning.
 */
export function formatMeantBy(name: string, constraints: readonly unknown[]): string | undefined {
  return Object.hasOwn(FORMAT_OF_RULE, name) && defaultOptions(name, constraints) ? FORMAT_OF_RULE[name] : undefined;
}

/**
 * The fast implementation for a developer rule (by class-validator's rule name and constraints), or `undefined` when
 * the rule has none or uses non-default options: then class-validator's constraint runs as written.
 */
export function fastRuleFor(
  name: string | undefined,
  constraints: readonly unknown[],
): ((value: unknown) => boolean) | undefined {
  if (name !== 'isEmail' && name !== 'isUuid' && name !== 'isUrl') return undefined;
  if (!defaultOptions(name, constraints) || !validatorVersionVerified()) return undefined;
  if (name === 'isEmail') return fastEmail;
  // class-validator passes `undefined` options to isUrl; validator.js treats `null` the same (merge replaces it).
  if (name === 'isUrl') return fastUrl;
  return fastUuid;
}

// One function per rule, shared by every use of it (not a closure per property).
const fastEmail = (value: unknown): boolean => typeof value === 'string' && isEmailDefault(value);
const fastUrl = (value: unknown): boolean => typeof value === 'string' && isUrlDefault(value);
const fastUuid = (value: unknown): boolean => typeof value === 'string' && isUuidDefault(value);

/**
 * validator.js's `isEmail` options (its `default_email_options`), with which an options object means exactly what no
 * options mean: validator.js fills every key the object lacks from these (`merge`, which writes them into the object
 * itself, so `@IsEmail({})` holds all of them after its first call).
 */
const DEFAULT_EMAIL_OPTIONS: Readonly<Record<string, unknown>> = {
  allow_display_name: false,
  allow_underscores: false,
  require_display_name: false,
  allow_utf8_local_part: true,
  require_tld: true,
  blacklisted_chars: '',
  ignore_max_length: false,
  host_blacklist: [],
  host_whitelist: [],
};

/**
 * Whether `@IsEmail(options)`'s options are the defaults: a plain object (validator.js reads inherited keys too, so its
 * prototype must be `Object.prototype` or none) whose every own key is one of the defaults with its default value (the
 * two lists empty arrays). `{}` is.
 */
function isDefaultEmailOptions(options: unknown): boolean {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return false;
  const prototype: unknown = Object.getPrototypeOf(options);
  if (prototype !== Object.prototype && prototype !== null) return false;
  for (const key of Reflect.ownKeys(options)) {
    if (typeof key !== 'string' || !Object.hasOwn(DEFAULT_EMAIL_OPTIONS, key)) return false;
    const value: unknown = (options as Record<string, unknown>)[key];
    const expected = DEFAULT_EMAIL_OPTIONS[key];
    if (Array.isArray(expected) ? !Array.isArray(value) || value.length !== 0 : value !== expected) return false;
  }
  return true;
}

// --- isUUID (version undefined/null -> 'all') --------------------------------------------------------------------

const UUID_ALL =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/i;

export function isUuidDefault(text: string): boolean {
  return UUID_ALL.test(text);
}

// --- byte length as validator.js's isByteLength measures it -------------------------------------------------------

/** UTF-8 length of `text[start, end)`; a lone surrogate throws the `URIError` validator.js's `encodeURI` throws. */
function utf8Length(text: string, start: number, end: number): number {
  let length = 0;
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) length += 1;
    else if (code < 0x800) length += 2;
    else if (code >= 0xd800 && code <= 0xdfff) {
      const next = index + 1 < end ? text.charCodeAt(index + 1) : 0;
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        length += 4;
        index++;
      } else {
        encodeURI(text.slice(start, end)); // throws URIError: URI malformed, as validator.js does
        length += 3;
      }
    } else length += 3;
  }
  return length;
}

// --- isFQDN with require_tld, no trailing dot, no underscores, no wildcard, no numeric TLD, max label length 63 ----

const FQDN_TLD = /^([a-z\u00A1-\u00A8\u00AA-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]{2,}|xn[a-z0-9-]{2,})$/i;
const WHITESPACE = /\s/;
const DIGITS_ONLY = /^\d+$/;
const FQDN_LABEL = /^[a-z_\u00a1-\uffff0-9-]+$/i;
const FULL_WIDTH = /[\uff01-\uff5e]/;

/** One domain label `text[start, end)`: `[A-Za-z0-9-]` for ASCII (no `_`: not allowed), no leading or trailing hyphen. */
function fqdnLabelValid(text: string, start: number, end: number): boolean {
  const length = end - start;
  if (length === 0 || length > 63) return false;
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0x80) return fqdnLabelValidSlow(text.slice(start, end));
    if (!(
      (code >= 0x61 && code <= 0x7a) ||
      (code >= 0x41 && code <= 0x5a) ||
      (code >= 0x30 && code <= 0x39) ||
      code === 0x2d
    ))
      return false;
  }
  return text.charCodeAt(start) !== 0x2d && text.charCodeAt(end - 1) !== 0x2d;
}

/** The label check exactly as validator.js writes it (any non-ASCII label). */
function fqdnLabelValidSlow(label: string): boolean {
  if (!FQDN_LABEL.test(label)) return false;
  if (FULL_WIDTH.test(label)) return false;
  if (label.charCodeAt(0) === 0x2d || label.charCodeAt(label.length - 1) === 0x2d) return false;
  return label.indexOf('_') === -1;
}

function asciiLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

/**
 * validator.js's TLD rules on `text[start, end)`: `^([a-z<unicode>]{2,}|xn[a-z0-9-]{2,})$/i`, no whitespace, not all
 * digits. For ASCII, by hand (such a TLD has no whitespace and is never all digits); otherwise by its regexes.
 */
function tldValid(text: string, start: number, end: number): boolean {
  let ascii = true;
  let allLetters = true;
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0x80) {
      ascii = false;
      break;
    }
    if (!asciiLetter(code)) allLetters = false;
  }
  if (!ascii) {
    const tld = text.slice(start, end);
    return FQDN_TLD.test(tld) && !WHITESPACE.test(tld) && !DIGITS_ONLY.test(tld);
  }
  const length = end - start;
  if (allLetters) return length >= 2;
  // `xn` then two or more of [a-z0-9-] (case-insensitive)
  if (length < 4 || (text.charCodeAt(start) | 0x20) !== 0x78 || (text.charCodeAt(start + 1) | 0x20) !== 0x6e)
    return false;
  for (let index = start + 2; index < end; index++) {
    const code = text.charCodeAt(index);
    if (!(asciiLetter(code) || (code >= 0x30 && code <= 0x39) || code === 0x2d)) return false;
  }
  return true;
}

/** validator.js's isFQDN on `text[start, end)` with require_tld and every other option off (max label length 63). */
function isFqdnDefault(text: string, start = 0, end = text.length): boolean {
  const lastDot = text.lastIndexOf('.', end - 1);
  if (lastDot < start) return false; // fewer than 2 labels
  if (!tldValid(text, lastDot + 1, end)) return false;
  let labelStart = start;
  for (;;) {
    const dot = text.indexOf('.', labelStart);
    const labelEnd = dot < 0 || dot >= end ? end : dot;
    if (!fqdnLabelValid(text, labelStart, labelEnd)) return false;
    if (labelEnd === end) return true;
    labelStart = labelEnd + 1;
  }
}

// --- isEmail with class-validator's default (undefined) options --------------------------------------------------

const EMAIL_USER_UTF8_PART = /^[a-z\d!#$%&'*+\-/=?^_`{|}~\u00A1-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]+$/i;
/* eslint-disable no-control-regex -- validator.js's quoted local part, character for character */
const QUOTED_EMAIL_USER_UTF8 =
  /^([\s\x01-\x08\x0b\x0c\x0e-\x1f\x7f\x21\x23-\x5b\x5d-\x7e\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]|(\\[\x01-\x09\x0b\x0c\x0d-\x7f\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]))*$/i;
/* eslint-enable no-control-regex */

/** ASCII characters of an unquoted local-part atom: letters, digits and ``!#$%&'*+-/=?^_`{|}~``. */
const ATOM_ASCII: Uint8Array = (() => {
  const table = new Uint8Array(128);
  for (let code = 0x30; code <= 0x39; code++) table[code] = 1;
  for (let code = 0x41; code <= 0x5a; code++) table[code] = 1;
  for (let code = 0x61; code <= 0x7a; code++) table[code] = 1;
  for (const character of "!#$%&'*+-/=?^_`{|}~") table[character.charCodeAt(0)] = 1;
  return table;
})();

/** One dot-separated part of an unquoted local part (non-empty; ASCII by table, anything else by validator.js's regex). */
function localAtomValid(text: string, start: number, end: number): boolean {
  if (start === end) return false;
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0x80) return EMAIL_USER_UTF8_PART.test(text.slice(start, end));
    if (ATOM_ASCII[code] !== 1) return false;
  }
  return true;
}

/**
 * The common case as one regular expression (V8 compiles it to native code; no allocation): an all-ASCII address with
 * an unquoted local part of dot-separated atoms and a domain of two or more `[A-Za-z0-9-]` labels with no hyphen at
 * either end, whose last label is two or more letters or `xn` and two or more of `[A-Za-z0-9-]`. The lengths hold
 * with it (`isPlainAsciiEmail`: implied up to 64 characters, checked first beyond): a local part of 1-64 characters
 * and a domain of at most 63 (so no label can be longer than 63; a longer domain takes the full path). For such a
 * string UTF-8 length is its length and every condition is one of `isEmailDefault`'s, so a match is its answer;
 * anything else (non-ASCII, quoted, any doubt) answers no and `isEmailDefault` decides, throws included. The
 * expression has no lookahead and its labels match deterministically (`[a-zA-Z0-9]+(?:-+[a-zA-Z0-9]+)*`), and neither
 * atoms nor labels contain `@`, so the first `@` is the only one.
 */
const PLAIN_ASCII_EMAIL =
  /^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-zA-Z0-9]+(?:-+[a-zA-Z0-9]+)*\.)+(?:[a-zA-Z]{2,}|[xX][nN][a-zA-Z0-9-]+[a-zA-Z0-9])$/;

/**
 * Whether `text` (at most 254 characters) takes the fast path; exported for its differential test.
 *
 * Up to 64 characters the lengths need no `indexOf`: a match has a non-empty local part without `@` (so its `@` is
 * the first, at 1 to 62) and a domain of at most 63 characters, so the expression alone is the answer: 0.88x for
 * `isEmailDefault` on `user0@example.com` (a string without `@` pays the expression before the full path refuses it).
 * A char-code scanner with a lookup table was measured too (the fast validators' decision record, addendum): 1.08x on `user0@example.com`
 * and 1.44x on a 128-character address against the expression alone, so the expression stays.
 */
export function isPlainAsciiEmail(text: string): boolean {
  if (text.length <= 64) return PLAIN_ASCII_EMAIL.test(text);
  const at = text.indexOf('@');
  return at >= 1 && at <= 64 && text.length - at <= 64 && PLAIN_ASCII_EMAIL.test(text);
}

export function isEmailDefault(text: string): boolean {
  const length = text.length;
  if (length > 254) return false;
  if (isPlainAsciiEmail(text)) return true;
  const at = text.lastIndexOf('@');
  const userEnd = at < 0 ? 0 : at;
  const domainStart = at < 0 ? 0 : at + 1;
  if (utf8Length(text, 0, userEnd) > 64 || utf8Length(text, domainStart, length) > 254) return false;
  if (!isFqdnDefault(text, domainStart, length)) return false;
  if (userEnd > 0 && text.charCodeAt(0) === 0x22 && text.charCodeAt(userEnd - 1) === 0x22) {
    return QUOTED_EMAIL_USER_UTF8.test(text.slice(1, Math.max(1, userEnd - 1)));
  }
  let start = 0;
  for (;;) {
    const dot = text.indexOf('.', start);
    const end = dot < 0 || dot >= userEnd ? userEnd : dot;
    if (!localAtomValid(text, start, end)) return false;
    if (end === userEnd) return true;
    start = end + 1;
  }
}

// --- isURL with validator.js's default options -------------------------------------------------------------------

const URL_FORBIDDEN = /[\s<>]/;
const URL_PROTOCOL = /^([a-z][a-z0-9+\-.]*):/i;
const URL_AUTH = /^[a-zA-Z0-9\-_.%:]*$/;
const URL_ENCODED = /%[0-9a-fA-F]{2}/;
const URL_STARTS_WITH_DIGIT = /^[0-9]/;
const URL_WRAPPED_IPV6 = /^\[([^\]]+)\](?::([0-9]+))?$/;
const URL_PORT = /^[0-9]+$/;

function allowedProtocol(protocol: string): boolean {
  const lower = protocol.toLowerCase();
  return lower === 'http' || lower === 'https' || lower === 'ftp';
}

export function isUrlDefault(input: string): boolean {
  if (!input || URL_FORBIDDEN.test(input)) return false;
  if (input.indexOf('mailto:') === 0) return false;
  if (input.length > 2084) return false;
  let url = input;
  const hash = url.indexOf('#');
  if (hash >= 0) url = url.slice(0, hash);
  const query = url.indexOf('?');
  if (query >= 0) url = url.slice(0, query);

  let hadExplicitProtocol = false;
  const protocolMatch = URL_PROTOCOL.exec(url);
  if (protocolMatch) {
    const protocol = protocolMatch[1]!;
    const afterColon = url.substring(protocolMatch[0].length);
    let consume: boolean;
    if (afterColon.slice(0, 2) !== '//') {
      const firstSlash = afterColon.indexOf('/');
      const beforeSlash = firstSlash === -1 ? afterColon : afterColon.substring(0, firstSlash);
      const atPosition = beforeSlash.indexOf('@');
      if (atPosition !== -1) {
        const beforeAt = beforeSlash.substring(0, atPosition);
        consume = !(URL_AUTH.test(beforeAt) && !URL_ENCODED.test(beforeAt));
      } else {
        consume = !URL_STARTS_WITH_DIGIT.test(afterColon);
      }
    } else consume = true;
    if (consume) {
      hadExplicitProtocol = true;
      if (!allowedProtocol(protocol)) return false;
      url = url.substring(protocolMatch[0].length);
    }
  }

  if (url.slice(0, 2) === '//') {
    if (!hadExplicitProtocol) return false;
    url = url.slice(2);
  }
  if (url === '') return false;
  const slash = url.indexOf('/');
  if (slash >= 0) url = url.slice(0, slash);

  let hostname = url;
  const atSplit = url.split('@');
  if (atSplit.length > 1) {
    const auth = atSplit[0]!;
    if (auth === '') return false;
    const authParts = auth.split(':');
    if (auth.indexOf(':') >= 0 && authParts.length > 2) return false;
    if (authParts[0] === '' && authParts[1] === '') return false;
    hostname = atSplit.slice(1).join('@');
  }

  let host: string;
  let portText: string | null = null;
  let ipv6: string | null = null;
  const ipv6Match = URL_WRAPPED_IPV6.exec(hostname);
  if (ipv6Match) {
    host = '';
    ipv6 = ipv6Match[1]!;
    portText = ipv6Match[2] || null;
  } else {
    const colon = hostname.indexOf(':');
    if (colon >= 0) {
      host = hostname.slice(0, colon);
      portText = hostname.slice(colon + 1);
    } else host = hostname;
  }
  if (portText !== null && portText.length > 0) {
    const port = parseInt(portText, 10);
    if (!URL_PORT.test(portText) || port <= 0 || port > 65535) return false;
  }
  if (!IPV4.test(host) && !IPV6_WITH_ZONE.test(host) && !isFqdnDefault(host) && (!ipv6 || !IPV6_WITH_ZONE.test(ipv6)))
    return false;
  return true;
}
