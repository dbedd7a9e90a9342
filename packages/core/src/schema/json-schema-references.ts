import { escapePointerSegment } from './json-schema-types';
import { schemaMessages as messages } from './messages';
import type { SchemaLocation } from './messages';

/** Where a local `$ref` points: the node, its JSON pointer, and its name when it is a `$defs` / `definitions` entry. */
export interface LocatedReference {
  readonly node: unknown;
  readonly targetPointer: string;
  readonly definitionName?: string;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Resolves a local `$ref` (`#`, `#/$defs/Address`, percent- and `~`-escaped segments) against the document root,
 * reading own properties only. Remote and anchor references are refused (`refUnsupported`), a pointer to nothing
 * with `refNotFound`. Recursion and depth are the walk's concern (json-schema-import.ts).
 */
export function locateReference(root: unknown, reference: string, where: SchemaLocation): LocatedReference {
  if (!reference.startsWith('#') || (reference.length > 1 && reference[1] !== '/'))
    throw messages.refUnsupported(where, reference);
  let decoded: string;
  try {
    decoded = decodeURIComponent(reference.slice(1));
  } catch {
    throw messages.refUnsupported(where, reference);
  }
  const segments =
    decoded === ''
      ? []
      : decoded
          .slice(1)
          .split('/')
          .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: unknown = root;
  for (const segment of segments) {
    if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(segment) && Number(segment) < node.length)
      node = node[Number(segment)];
    else if (isRecord(node) && Object.prototype.hasOwnProperty.call(node, segment)) node = node[segment];
    else throw messages.refNotFound(where, reference);
  }
  const targetPointer = segments.map((segment) => `/${escapePointerSegment(segment)}`).join('');
  const definitionName =
    segments.length === 2 && (segments[0] === '$defs' || segments[0] === 'definitions') ? segments[1] : undefined;
  return { node, targetPointer, ...(definitionName !== undefined ? { definitionName } : {}) };
}
