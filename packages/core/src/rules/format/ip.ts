import { invalid, valid, type LabelledValue } from '../outcome';

/**
 * The `ipv4` and `ipv6` formats (JSON Schema: RFC 2673's dotted-quad, RFC 4291's text forms), the same expressions
 * validator.js's `isIP` uses (no leading zeros in a dotted-quad; every `::` form, an IPv4 tail). validator.js's `isURL`
 * (`@IsUrl()`, `rules/validator-js.ts`) reads the IPv6 form with a zone id (`%eth0`) as well, which JSON Schema's
 * `ipv6` does not take.
 */
const IPV4_SEGMENT = '(?:[0-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-5])';
const IPV4_ADDRESS = `(${IPV4_SEGMENT}[.]){3}${IPV4_SEGMENT}`;
export const IPV4 = new RegExp(`^${IPV4_ADDRESS}$`);
const IPV6_SEGMENT = '(?:[0-9a-fA-F]{1,4})';
const IPV6_FORMS =
  '(' +
  `(?:${IPV6_SEGMENT}:){7}(?:${IPV6_SEGMENT}|:)|` +
  `(?:${IPV6_SEGMENT}:){6}(?:${IPV4_ADDRESS}|:${IPV6_SEGMENT}|:)|` +
  `(?:${IPV6_SEGMENT}:){5}(?::${IPV4_ADDRESS}|(:${IPV6_SEGMENT}){1,2}|:)|` +
  `(?:${IPV6_SEGMENT}:){4}(?:(:${IPV6_SEGMENT}){0,1}:${IPV4_ADDRESS}|(:${IPV6_SEGMENT}){1,3}|:)|` +
  `(?:${IPV6_SEGMENT}:){3}(?:(:${IPV6_SEGMENT}){0,2}:${IPV4_ADDRESS}|(:${IPV6_SEGMENT}){1,4}|:)|` +
  `(?:${IPV6_SEGMENT}:){2}(?:(:${IPV6_SEGMENT}){0,3}:${IPV4_ADDRESS}|(:${IPV6_SEGMENT}){1,5}|:)|` +
  `(?:${IPV6_SEGMENT}:){1}(?:(:${IPV6_SEGMENT}){0,4}:${IPV4_ADDRESS}|(:${IPV6_SEGMENT}){1,6}|:)|` +
  `(?::((?::${IPV6_SEGMENT}){0,5}:${IPV4_ADDRESS}|(?::${IPV6_SEGMENT}){1,7}|:))` +
  ')';
export const IPV6 = new RegExp(`^${IPV6_FORMS}$`);
export const IPV6_WITH_ZONE = new RegExp(`^${IPV6_FORMS}(%[0-9a-zA-Z.]{1,})?$`);

export function isIpv4(text: string): boolean {
  return IPV4.test(text);
}

export function isIpv6(text: string): boolean {
  return IPV6.test(text);
}

export function ipv4EdgeCases(): LabelledValue[] {
  return [
    valid('192.168.0.1', 'a private address'),
    valid('0.0.0.0', 'all zeros'),
    valid('255.255.255.255', 'all ones'),
    invalid('256.1.1.1', 'a segment of 256'),
    invalid('01.1.1.1', 'a leading zero'),
    invalid('1.1.1', 'three segments'),
    invalid('1.1.1.1 ', 'a trailing space'),
    invalid('\uFF11.1.1.1', 'a fullwidth digit'),
  ];
}

export function ipv6EdgeCases(): LabelledValue[] {
  return [
    valid('::1', 'loopback'),
    valid('::', 'unspecified'),
    valid('2001:db8::8a2e:370:7334', 'a compressed form'),
    valid('::ffff:192.0.2.1', 'an IPv4 tail'),
    invalid('2001:db8:::1', 'three colons'),
    invalid('fe80::1%eth0', 'a zone id'),
    invalid('12345::', 'a five-digit group'),
    invalid('192.168.0.1', 'an IPv4 address'),
  ];
}
