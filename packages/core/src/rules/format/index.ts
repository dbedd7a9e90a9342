import { dateEdgeCases, isDateOnly } from '../date';
import { dateTimeEdgeCases, isCanonicalDateTime } from '../date-time';
import { isTime, timeEdgeCases } from '../time';
import type { LabelledValue } from '../outcome';
import { emailEdgeCases, isEmail } from './email';
import { hostnameEdgeCases, isHostname } from './hostname';
import { ipv4EdgeCases, ipv6EdgeCases, isIpv4, isIpv6 } from './ip';
import { isUri, uriEdgeCases } from './uri';
import { isUuid, uuidEdgeCases } from './uuid';

/**
 * The string formats toolwright enforces, each by its one definition (`rules/format/<name>.ts`, or the date, time and
 * date-time kinds): every format a model is shown is one of these, and a string node's `format` is checked on every
 * path (the normalizer, the shared walk, the hot tier, the reference path's decorators, conformance). A format not
 * here is never advertised: a JSON-Schema tool's unknown format is moved into the description as a hint
 * (`Format: phone.`), and `@ToolParam({ format })` with one is refused when the class is read.
 *
 * `date` and `date-time` on a JSON Schema string become their own kinds (with repairs); as a string node's format
 * (`@ToolParam({ format: 'date-time' })` on a string property) they keep the value as sent, in canonical form only.
 */
export interface FormatRule {
  /** The format's name, as JSON Schema spells it. */
  readonly name: string;
  /** The canonical test of a string (the value is a string: the kind's test ran first). */
  readonly test: (text: string) => boolean;
  /** What the model is told a value must be (after "a string in ... format"). */
  readonly description: string;
  /** A value that satisfies the rule. */
  readonly example: string;
  /** The format's edge cases, labelled. */
  readonly edgeCases: () => LabelledValue[];
}

const rule = (
  name: string,
  test: (text: string) => boolean,
  description: string,
  example: string,
  edgeCases: () => LabelledValue[],
): FormatRule => Object.freeze({ name, test, description, example, edgeCases });

const onlyStrings = (cases: () => LabelledValue[]) => () => cases().filter((edge) => typeof edge.value === 'string');

export const FORMATS: ReadonlyMap<string, FormatRule> = new Map(
  [
    rule('email', isEmail, 'an e-mail address', 'name@example.com', emailEdgeCases),
    rule('uri', isUri, 'an absolute URI with a scheme', 'https://example.com', uriEdgeCases),
    rule('uuid', isUuid, 'a UUID', '123e4567-e89b-42d3-a456-426614174000', uuidEdgeCases),
    rule('ipv4', isIpv4, 'an IPv4 address', '192.0.2.1', ipv4EdgeCases),
    rule('ipv6', isIpv6, 'an IPv6 address', '2001:db8::1', ipv6EdgeCases),
    rule('hostname', isHostname, 'a host name', 'api.example.com', hostnameEdgeCases),
    rule('date', isDateOnly, 'a date as YYYY-MM-DD', '2026-01-31', onlyStrings(dateEdgeCases)),
    rule('time', isTime, 'a time as HH:MM:SS with a UTC offset', '09:00:00+01:00', timeEdgeCases),
    rule(
      'date-time',
      isCanonicalDateTime,
      'an RFC 3339 date-time with a UTC offset',
      '2026-01-31T09:00:00+01:00',
      onlyStrings(dateTimeEdgeCases),
    ),
  ].map((format) => [format.name, format]),
);

/** The rule of a format toolwright enforces, or `undefined` (then it is never advertised). */
export function formatRule(name: string): FormatRule | undefined {
  return FORMATS.get(name);
}

/** Whether a string satisfies a format (an unknown format holds nothing: it never reaches a node). */
export function formatHolds(name: string, text: string): boolean {
  const format = FORMATS.get(name);
  return format !== undefined && format.test(text);
}

/** The formats toolwright enforces, for messages (`email, uri, ...`). */
export const ENFORCED_FORMAT_NAMES: readonly string[] = [...FORMATS.keys()];
