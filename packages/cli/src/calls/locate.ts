import type { Transformation } from '@toolwright/core';

/** Where a transformation shows in the original text: a character span, the tool name, the whole text, or nowhere (a value added from the context). */
export type TransformationTarget =
  | { readonly kind: 'span'; readonly start: number; readonly end: number }
  | { readonly kind: 'name' }
  | { readonly kind: 'text' }
  | { readonly kind: 'none' };

/** `options[1].label` -> `['options', 1, 'label']`. */
export function pathSegments(path: string): Array<string | number> {
  const segments: Array<string | number> = [];
  for (const match of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    if (match[2] !== undefined) segments.push(Number(match[2]));
    else if (match[1] !== undefined) segments.push(match[1]);
  }
  return segments;
}

function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toLowerCase();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Rules that renamed a key: `from` is the key the model wrote. */
function isKeyRename(rule: string): boolean {
  return rule === 'key-case' || (rule.endsWith('-key') && !rule.startsWith('dropped-'));
}

/** The span of a quoted key (`"key"`, `'key'`, `\"key\"` inside an encoded string, or a bare key) followed by a colon, searching from `from`. */
function findKey(text: string, key: string, from = 0): { start: number; end: number } | undefined {
  // Quoted either way, or bare; inside a double-encoded string the quotes are escaped (`\"key\":`).
  const pattern = new RegExp(`(\\\\?["']?)${escapeRegExp(key)}\\1\\s*:`, 'g');
  pattern.lastIndex = from;
  const match = pattern.exec(text);
  if (!match) return undefined;
  const quote = match[1] ?? '';
  return { start: match.index, end: match.index + key.length + quote.length * 2 };
}

/** The span of a value as it may be written: quoted either way, or bare (numbers, booleans, Python literals). */
function findValue(text: string, value: unknown, from: number): { start: number; end: number } | undefined {
  const candidates: string[] = [];
  if (typeof value === 'string') {
    const json = JSON.stringify(value);
    candidates.push(json, `'${value}'`, json.slice(1, -1));
  } else if (typeof value === 'number' || typeof value === 'boolean') {
    candidates.push(String(value));
    if (typeof value === 'boolean') candidates.push(value ? 'True' : 'False');
  } else if (value === null) {
    candidates.push('null', 'None');
  } else if (value !== undefined) {
    candidates.push(JSON.stringify(value));
  }
  let best: { start: number; end: number } | undefined;
  for (const candidate of candidates) {
    if (candidate === '') continue;
    const index = text.indexOf(candidate, from);
    if (index >= 0 && (best === undefined || index < best.start))
      best = { start: index, end: index + candidate.length };
  }
  return best;
}

/** Rules about the arguments text as a whole, and what part of the text each one changed. */
function textRuleTarget(text: string, transformation: Transformation): TransformationTarget {
  const from = typeof transformation.from === 'string' ? transformation.from : undefined;
  const to = typeof transformation.to === 'string' ? transformation.to : undefined;
  const start = from === undefined ? -1 : text.indexOf(from);
  if (from !== undefined && to !== undefined && start >= 0) {
    const inner = from.indexOf(to);
    // A wrapper around the arguments (a fenced block, prose around an object): the wrapper is what changed.
    if (inner > 0 || (inner === 0 && to.length < from.length)) {
      if (inner > 0) return { kind: 'span', start, end: start + inner };
      return { kind: 'span', start: start + to.length, end: start + from.length };
    }
  }
  const patterns: Record<string, RegExp> = {
    'trailing-commas': /,(?=\s*[}\]])/,
    'python-literals': /\b(?:True|False|None)\b/,
    'single-quotes': /'/,
  };
  const pattern = patterns[transformation.rule];
  if (pattern && start >= 0) {
    const match = pattern.exec(text.slice(start, start + (from?.length ?? text.length)));
    if (match) return { kind: 'span', start: start + match.index, end: start + match.index + match[0].length };
  }
  return { kind: 'text' };
}

/**
 * Finds what a transformation changed in the arguments text the model sent, for highlighting. The executor records
 * paths and values, not offsets, so this searches the text: the key of the path (after its parents' keys), then the
 * original value after it. What cannot be placed exactly is reported as the whole text or as not in the text.
 */
export function locateTransformation(
  text: string,
  transformation: Transformation,
  renamedKeys: ReadonlyMap<string, string> = new Map(),
): TransformationTarget {
  if (transformation.rule.startsWith('tool-name-')) return { kind: 'name' };
  if (transformation.path === '') return textRuleTarget(text, transformation);
  if (
    transformation.rule.startsWith('extracted-') ||
    transformation.rule === 'injected-context' ||
    !('from' in transformation)
  )
    return { kind: 'none' };
  const segments = pathSegments(transformation.path);
  let cursor = 0;
  let keySpan: { start: number; end: number } | undefined;
  const names = segments.filter((segment): segment is string => typeof segment === 'string');
  const renamed = isKeyRename(transformation.rule) && typeof transformation.from === 'string';
  let prefix = '';
  for (const [index, name] of names.entries()) {
    const last = index === names.length - 1;
    prefix = prefix === '' ? name : `${prefix}.${name}`;
    // A key an earlier transformation renamed is written in the text as the model spelled it.
    const spelled = renamedKeys.get(prefix);
    const keys = last && renamed ? [transformation.from, name] : [...(spelled ? [spelled] : []), name, snakeCase(name)];
    const found = keys
      .map((key) => findKey(text, key, cursor))
      .filter((span) => span !== undefined)
      .sort((a, b) => a.start - b.start)[0];
    if (!found) return { kind: 'text' };
    keySpan = found;
    cursor = found.end;
  }
  if (!keySpan) return { kind: 'text' };
  if (renamed || transformation.rule.startsWith('dropped-')) return { kind: 'span', ...keySpan };
  const value = findValue(text, transformation.from, keySpan.end);
  return value ? { kind: 'span', ...value } : { kind: 'span', ...keySpan };
}

/**
 * Locates every transformation of one call. Key renames come first in the executor's list, so later value changes
 * at the same path find the key as the model spelled it (`Max-Results` for `max_results`).
 */
export function locateTransformations(
  text: string,
  transformations: readonly Transformation[],
): TransformationTarget[] {
  const renamedKeys = new Map<string, string>();
  return transformations.map((transformation) => {
    const target = locateTransformation(text, transformation, renamedKeys);
    if (isKeyRename(transformation.rule) && typeof transformation.from === 'string') {
      renamedKeys.set(
        pathSegments(transformation.path)
          .filter((segment) => typeof segment === 'string')
          .join('.'),
        transformation.from,
      );
    }
    return target;
  });
}
