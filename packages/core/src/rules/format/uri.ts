import { isIpv6 } from './ip';
import { invalid, valid, type LabelledValue } from '../outcome';

/**
 * The `uri` format (JSON Schema: an absolute URI, RFC 3986 section 3 with a scheme): `scheme:` then the hierarchical
 * part, an optional query and fragment, every character one RFC 3986 allows where it stands and every `%` followed by
 * two hex digits; an authority (`//`) holds an optional user, a registered name or a bracketed IPv6 address, and an
 * optional numeric port. A linear scan. validator.js's `isURL` (`@IsUrl()`) means a web address (no scheme needed,
 * `http`, `https` or `ftp` only, a TLD), so it keeps its own meaning and is not advertised as this format.
 */

/** RFC 3986 `unreserved` and `sub-delims`. */
function unreservedOrSubDelim(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2d || // -
    code === 0x2e || // .
    code === 0x5f || // _
    code === 0x7e || // ~
    code === 0x21 || // !
    code === 0x24 || // $
    (code >= 0x26 && code <= 0x2c) || // & ' ( ) * + ,
    code === 0x3b || // ;
    code === 0x3d // =
  );
}

function hexDigit(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

/** Whether `text[start, end)` holds only unreserved characters, sub-delims, `extra` and valid percent escapes. */
function encoded(text: string, start: number, end: number, extra: string): boolean {
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x25) {
      if (index + 2 >= end) return false;
      if (!hexDigit(text.charCodeAt(index + 1)) || !hexDigit(text.charCodeAt(index + 2))) return false;
      index += 2;
    } else if (!unreservedOrSubDelim(code) && !extra.includes(text[index]!)) return false;
  }
  return true;
}

export function isUri(text: string): boolean {
  // The scheme: a letter, then letters, digits, `+`, `-`, `.`, then `:`.
  const first = text.charCodeAt(0);
  if (!((first >= 0x61 && first <= 0x7a) || (first >= 0x41 && first <= 0x5a))) return false;
  let at = 1;
  for (; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x3a) break;
    const schemeChar =
      (code >= 0x61 && code <= 0x7a) ||
      (code >= 0x41 && code <= 0x5a) ||
      (code >= 0x30 && code <= 0x39) ||
      code === 0x2b ||
      code === 0x2d ||
      code === 0x2e;
    if (!schemeChar) return false;
  }
  if (at >= text.length) return false;
  at++;
  const hash = text.indexOf('#', at);
  const fragmentStart = hash === -1 ? text.length : hash;
  if (hash !== -1 && !encoded(text, hash + 1, text.length, ':@/?')) return false;
  const question = text.indexOf('?', at);
  const queryStart = question === -1 || question > fragmentStart ? fragmentStart : question;
  if (queryStart < fragmentStart && !encoded(text, queryStart + 1, fragmentStart, ':@/?')) return false;
  let pathStart = at;
  if (text.startsWith('//', at)) {
    const authorityStart = at + 2;
    let authorityEnd = queryStart;
    const slash = text.indexOf('/', authorityStart);
    if (slash !== -1 && slash < authorityEnd) authorityEnd = slash;
    if (!authorityValid(text, authorityStart, authorityEnd)) return false;
    pathStart = authorityEnd;
  }
  return encoded(text, pathStart, queryStart, ':@/');
}

function authorityValid(text: string, start: number, end: number): boolean {
  const atSign = text.lastIndexOf('@', end - 1);
  let hostStart = start;
  if (atSign >= start) {
    if (!encoded(text, start, atSign, ':')) return false;
    hostStart = atSign + 1;
  }
  let hostEnd = end;
  if (text.charCodeAt(hostStart) === 0x5b) {
    const close = text.indexOf(']', hostStart);
    if (close === -1 || close >= end || !isIpv6(text.slice(hostStart + 1, close))) return false;
    hostEnd = close + 1;
    if (hostEnd < end && text.charCodeAt(hostEnd) !== 0x3a) return false;
  } else {
    const colon = text.indexOf(':', hostStart);
    if (colon !== -1 && colon < end) hostEnd = colon;
    if (!encoded(text, hostStart, hostEnd, '')) return false;
  }
  // The port: digits after a colon (possibly none).
  for (let index = hostEnd + 1; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}

export function uriEdgeCases(): LabelledValue[] {
  return [
    valid('https://example.com/path?q=1#top', 'a web address'),
    valid('mailto:name@example.com', 'a mailto URI'),
    valid('urn:isbn:0451450523', 'a URN'),
    valid('http://[2001:db8::1]:8080/', 'a bracketed IPv6 host with a port'),
    valid('file:///etc/hosts', 'an empty authority'),
    valid('https://example.com/a%20b', 'a percent escape'),
    invalid('::::', 'colons only'),
    invalid('example.com', 'no scheme'),
    invalid('/relative/path', 'a relative reference'),
    invalid('https://exa mple.com', 'a space'),
    invalid('https://example.com/a%2', 'a short percent escape'),
    invalid('https://example.com/a%zz', 'a percent escape that is not hex'),
    invalid('https://example.com:80a/', 'a port that is not numeric'),
    invalid('http://[::1/', 'an unclosed bracket'),
    invalid('https://example.com/\u00e9', 'a non-ASCII character (an IRI, not a URI)'),
    invalid('1http://example.com', 'a scheme starting with a digit'),
  ];
}
