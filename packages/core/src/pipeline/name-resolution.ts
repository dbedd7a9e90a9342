import type { ToolDefinition } from '../types/definition';

/** What the executor needs of a registry to resolve names. */
export interface ToolLookup {
  readonly version: number;
  get(name: string): ToolDefinition | undefined;
  list(): readonly ToolDefinition[];
}

export type NameResolution =
  | { readonly found: true; readonly name: string; readonly rule?: 'alias' | 'prefix' | 'case' | 'namespace' }
  | { readonly found: false; readonly suggestions: readonly string[] };

/** Prefixes models put before a tool name (OpenAI's `functions.` namespace, and relatives). */
/** Tool names compare ignoring case and every separator (`hotel_book` finds `hotel/book`, `Math.Factorial` finds `math.factorial`). */
function canonicalKey(name: string): string {
  return name.replace(/[^\p{L}\p{N}]/gu, '').toLowerCase();
}

/**
 * Longest name the resolution rules run on (aliases, prefixes, case, namespaces, suggestions); a longer name is found
 * only by an exact match. Provider and MCP names are at most 64-128 characters.
 */
export const MAX_TOOL_NAME_LENGTH = 256;

const KNOWN_PREFIXES = ['functions.', 'function.', 'functions/', 'tools.', 'tool.', 'default_api.'];

interface NameIndex {
  readonly version: number;
  readonly aliases: Map<string, string>;
  readonly canonical: Map<string, string | null>;
  readonly byLastSegment: Map<string, string | null>;
  readonly names: readonly string[];
}

const indexes = new WeakMap<ToolLookup, NameIndex>();

function addUnique(map: Map<string, string | null>, key: string, name: string): void {
  const existing = map.get(key);
  map.set(key, existing === undefined || existing === name ? name : null);
}

function indexFor(lookup: ToolLookup): NameIndex {
  const cached = indexes.get(lookup);
  if (cached && cached.version === lookup.version) return cached;
  const aliases = new Map<string, string>();
  const canonical = new Map<string, string | null>();
  const byLastSegment = new Map<string, string | null>();
  const names: string[] = [];
  for (const definition of lookup.list()) {
    names.push(definition.name);
    for (const alias of definition.options.aliases ?? []) aliases.set(alias, definition.name);
    for (const name of [definition.name, ...(definition.options.aliases ?? [])])
      addUnique(canonical, canonicalKey(name), definition.name);
    const segment = /[./:]([^./:]+)$/.exec(definition.name)?.[1];
    if (segment) addUnique(byLastSegment, segment.toLowerCase(), definition.name);
  }
  const index = { version: lookup.version, aliases, canonical, byLastSegment, names };
  indexes.set(lookup, index);
  return index;
}

/**
 * Pipeline step 1: exact name, declared alias, a known prefix, case/separator-insensitive, then a server
 * namespace (`zwave.control` called as `control`) when unique. Never throws.
 */
export function resolveToolName(lookup: ToolLookup, requested: string): NameResolution {
  if (typeof requested === 'string' && lookup.get(requested)) return { found: true, name: requested };
  // Past the cap no rule can find a tool (prefixes and separators are short): refused before any per-character work.
  if (typeof requested === 'string' && requested.length > MAX_TOOL_NAME_LENGTH)
    return { found: false, suggestions: [] };
  const name = typeof requested === 'string' ? requested.trim() : '';
  if (name === '') return { found: false, suggestions: [] };
  if (lookup.get(name)) return { found: true, name };
  const index = indexFor(lookup);
  const alias = index.aliases.get(name);
  if (alias) return { found: true, name: alias, rule: 'alias' };
  for (const prefix of KNOWN_PREFIXES) {
    if (name.startsWith(prefix)) {
      const inner = resolveToolName(lookup, name.slice(prefix.length));
      if (inner.found) return { found: true, name: inner.name, rule: 'prefix' };
    }
  }
  const canonical = index.canonical.get(canonicalKey(name));
  if (canonical) return { found: true, name: canonical, rule: 'case' };
  const bySegment = index.byLastSegment.get(name.toLowerCase());
  if (bySegment) return { found: true, name: bySegment, rule: 'namespace' };
  return { found: false, suggestions: suggest(name, index.names) };
}

/** Up to three close names: by edit distance on the canonical forms, and by containment. */
export function suggest(name: string, names: readonly string[], limit = 3): string[] {
  const wanted = canonicalKey(name);
  const scored: Array<{ name: string; score: number }> = [];
  for (const candidate of names) {
    const form = canonicalKey(candidate);
    const distance = editDistance(wanted, form, Math.max(3, Math.ceil(form.length / 3)));
    const contains = wanted.length >= 3 && (form.includes(wanted) || wanted.includes(form));
    if (distance <= Math.max(2, Math.ceil(form.length / 3)) || contains)
      scored.push({ name: candidate, score: contains ? Math.min(distance, 2) : distance });
  }
  scored.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name));
  return scored.slice(0, limit).map((entry) => entry.name);
}

/** Levenshtein distance, stopping early once it exceeds `bound`. */
function editDistance(a: string, b: string, bound: number): number {
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMinimum = i;
    for (let j = 1; j <= b.length; j++) {
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      current.push(value);
      if (value < rowMinimum) rowMinimum = value;
    }
    if (rowMinimum > bound) return bound + 1;
    previous = current;
  }
  return previous[b.length]!;
}
