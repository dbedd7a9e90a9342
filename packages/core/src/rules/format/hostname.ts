import { invalid, valid, type LabelledValue } from '../outcome';

/**
 * The `hostname` format (JSON Schema: RFC 1123): dot-separated labels of 1 to 63 ASCII letters, digits and hyphens,
 * neither starting nor ending with a hyphen, 253 characters at most (a trailing dot allowed). No TLD is required
 * (`localhost` is a hostname). validator.js's `isFQDN` (`@IsFQDN()`) requires one, so it keeps its own meaning and is not
 * advertised as this format. A linear scan.
 */
export function isHostname(text: string): boolean {
  const end = text.endsWith('.') ? text.length - 1 : text.length;
  if (end === 0 || end > 253) return false;
  let labelStart = 0;
  for (let index = 0; index <= end; index++) {
    const code = index === end ? 0x2e : text.charCodeAt(index);
    if (code === 0x2e) {
      const length = index - labelStart;
      if (length === 0 || length > 63) return false;
      if (text.charCodeAt(labelStart) === 0x2d || text.charCodeAt(index - 1) === 0x2d) return false;
      labelStart = index + 1;
      continue;
    }
    const letterOrDigit =
      (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
    if (!letterOrDigit && code !== 0x2d) return false;
  }
  return true;
}

export function hostnameEdgeCases(): LabelledValue[] {
  return [
    valid('localhost', 'no TLD'),
    valid('example.com.', 'a trailing dot'),
    valid('xn--bcher-kva.example', 'a punycode label'),
    valid(`${'a'.repeat(63)}.com`, 'a 63-character label'),
    invalid(`${'a'.repeat(64)}.com`, 'a 64-character label'),
    invalid('-example.com', 'a leading hyphen'),
    invalid('example-.com', 'a trailing hyphen'),
    invalid('exa mple.com', 'a space'),
    invalid('b\u00fccher.example', 'a non-ASCII letter'),
    invalid('example..com', 'an empty label'),
    invalid('', 'empty'),
  ];
}
