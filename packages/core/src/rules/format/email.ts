import { isEmailDefault } from '../validator-js';
import { invalid, valid, type LabelledValue } from '../outcome';

/**
 * The `email` format: one definition for `format: email` (a JSON-Schema tool, `@ToolParam({ format: 'email' })`) and
 * for `@IsEmail()` with its default options: validator.js's `isEmail`, whose exact form `isEmailDefault` is (a dotted
 * domain with a TLD, an unquoted or quoted local part, UTF-8 allowed, length limits). An `@IsEmail(options)` with other
 * options keeps its own meaning and is not advertised as `format: email`.
 */
export function isEmail(text: string): boolean {
  try {
    return isEmailDefault(text);
  } catch {
    // validator.js throws on a lone surrogate (its `encodeURI`): such text is no e-mail address.
    return false;
  }
}

export function emailEdgeCases(): LabelledValue[] {
  return [
    valid('name@example.com', 'a plain address'),
    valid('first.last+tag@sub.example.co.uk', 'dots, a plus tag, a subdomain'),
    invalid('not an email', 'words'),
    invalid('name@localhost', 'no TLD'),
    invalid('name@@example.com', 'two at signs'),
    invalid('name@example..com', 'an empty label'),
    invalid('name@example.com ', 'a trailing space'),
    valid('name\u200B@example.com', 'a zero-width space in the local part (UTF-8 local parts are allowed)'),
    invalid('name@exa mple.com', 'a space in the domain'),
    invalid('@example.com', 'no local part'),
    invalid('na\uD800me@example.com', 'a lone surrogate'),
  ];
}
