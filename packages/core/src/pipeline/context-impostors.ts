import { objectNodes } from '../schema/object-nodes';
import type { ObjectSchema } from '../types/schema';
import type { SecurityEvent } from './normalizer';

const declaredBySchema = new WeakMap<ObjectSchema, ReadonlySet<string>>();

/** Every property name and alias a tool's parameters declare, at any depth (a declared name is data, not an impostor). */
function declaredNames(schema: ObjectSchema): ReadonlySet<string> {
  const cached = declaredBySchema.get(schema);
  if (cached !== undefined) return cached;
  const names = new Set<string>();
  for (const node of objectNodes(schema)) {
    for (const property of node.properties) {
      if (property.context) continue;
      names.add(property.name);
      for (const alias of property.aliases) names.add(alias);
    }
  }
  declaredBySchema.set(schema, names);
  return names;
}

/** The context names a model may never set (the same list the normalizer drops), by canonical form. */
const CONTEXT_NAMES = [
  'session_id',
  'job_id',
  'flow_step_id',
  'source_url',
  'image_url',
  'handler_config',
  'persona',
] as const;
const BY_CANONICAL: ReadonlyMap<string, string> = new Map(CONTEXT_NAMES.map((name) => [canonical(name), name]));

function canonical(key: string): string {
  return key.replace(/[-_\s.]/g, '').toLowerCase();
}

/** Characters that render as nothing: a key holding one looks like the name without it. */
/* eslint-disable no-misleading-character-class -- the class lists invisible and combining code points one by one on purpose */
const INVISIBLE =
  /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]/g;
/* eslint-enable no-misleading-character-class */

/**
 * Letters of other scripts that look like the Latin letters of the context names (Unicode's confusables for them,
 * Cyrillic, Greek, Armenian and Cherokee); fullwidth, mathematical and other compatibility forms are folded by NFKC.
 */
const CONFUSABLES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    a: 'аɑαа⍺',
    b: 'ЬƄᏏ',
    c: 'сϲⅽᴄ',
    d: 'ԁⅾ',
    e: 'еєҽ℮ꬲ',
    f: 'ſꞙ',
    g: 'ɡցᶃ',
    h: 'һհᏂ',
    i: 'іɩιӏⅰı˛',
    j: 'јϳ',
    k: 'κᴋ',
    l: 'ӏⅼǀ',
    m: 'ⅿ',
    n: 'ոռ',
    o: 'оοօᴏσ',
    p: 'рρᴘ',
    q: 'ԛ',
    r: 'гᴦ',
    s: 'ѕꜱƽ',
    t: 'τᴛ',
    u: 'υսᴜ',
    v: 'νѵᴠⅴ',
    w: 'ѡᴡԝ',
    x: 'хχⅹ',
    y: 'уүγ',
    z: 'ᴢ',
    _: '＿‗ˍ',
    '-': '‐‑‒–—−',
  }).flatMap(([latin, lookAlikes]) => [...lookAlikes].map((character) => [character, latin] as const)),
);

/**
 * The context name a key imitates, when it is not one itself: after NFKC (fullwidth `ｓｅｓｓｉｏｎ＿ｉｄ`), without
 * invisible characters (`session\u200b_id`) and with look-alike letters of other scripts read as Latin (`ѕеѕѕіоn_іd`),
 * it reads as a context name. Plain-ASCII keys never imitate (they are the name, or another word).
 */
export function imitatedContextName(key: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  if (/^[\u0000-\u007f]*$/.test(key) || key.length > 64) return undefined;
  let folded = key.normalize('NFKC').replace(INVISIBLE, '');
  folded = Array.from(folded, (character) => CONFUSABLES.get(character) ?? character).join('');
  return BY_CANONICAL.get(canonical(folded));
}

/** The context name a key is (any case or separators), or undefined. */
export function contextNameOf(key: string): string | undefined {
  return key.length > 64 ? undefined : BY_CANONICAL.get(canonical(key));
}

/** Most keys one call's arguments are scanned for (they are already within the size budget). */
const MAX_SCANNED_KEYS = 100_000;

/**
 * Security events for keys anywhere in the (sanitized) arguments that the normalizer did not already report: a context
 * name nested inside a free-form object (`{"metadata": {"session_id": ...}}`), and a key that imitates a context name
 * (fullwidth, another script's letters, invisible characters). Nothing is set from them: context comes from the
 * ExecutionContext only; the values stay where the schema puts them (data of a free-form object, or a dropped key).
 */
export function findContextImpostors(
  value: unknown,
  reported: readonly SecurityEvent[],
  schema: ObjectSchema,
): SecurityEvent[] {
  if (!hasCandidateKey(value)) return [];
  const declared = declaredNames(schema);
  const events: SecurityEvent[] = [];
  const reportedPaths = new Set(reported.map((event) => event.path));
  const reportedKeys = new Set(reported.map((event) => event.key));
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: '', depth: 0 }];
  let scanned = 0;
  while (stack.length > 0 && scanned < MAX_SCANNED_KEYS) {
    const frame = stack.pop()!;
    const current = frame.value;
    if (typeof current !== 'object' || current === null) continue;
    if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index++)
        stack.push({ value: current[index], path: `${frame.path}[${index}]`, depth: frame.depth + 1 });
      continue;
    }
    for (const key of Object.keys(current)) {
      scanned++;
      const path = frame.path === '' ? key : `${frame.path}.${key}`;
      if (!reportedPaths.has(path) && !reportedKeys.has(key)) {
        const exact = contextNameOf(key);
        if (exact !== undefined && frame.depth > 0 && !declared.has(key))
          events.push({ kind: 'nested-context-name', path, key, contextKey: exact });
        else if (exact === undefined) {
          const imitated = imitatedContextName(key);
          if (imitated !== undefined) events.push({ kind: 'look-alike-context-key', path, key, contextKey: imitated });
        }
      }
      stack.push({ value: (current as Record<string, unknown>)[key], path, depth: frame.depth + 1 });
    }
  }
  return events;
}

/** Whether a key could be reported: a context name in any spelling, or a non-ASCII key (a possible look-alike). */
const candidateKeys = new Map<string, boolean>();
const MAX_REMEMBERED_KEYS = 10_000;

function isCandidateKey(key: string): boolean {
  let candidate = candidateKeys.get(key);
  if (candidate === undefined) {
    // eslint-disable-next-line no-control-regex
    candidate = key.length <= 64 && (contextNameOf(key) !== undefined || !/^[\u0000-\u007f]*$/.test(key));
    if (candidateKeys.size < MAX_REMEMBERED_KEYS) candidateKeys.set(key, candidate);
  }
  return candidate;
}

/**
 * A walk over the keys alone (no paths, no frames), so the common call, whose keys are all ordinary words, is not
 * scanned twice; any key that could be reported sends the value through the full scan.
 */
function hasCandidateKey(value: unknown): boolean {
  const stack: unknown[] = [value];
  let scanned = 0;
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current !== 'object' || current === null) continue;
    if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index++) stack.push(current[index]);
      continue;
    }
    for (const key of Object.keys(current)) {
      if (++scanned > MAX_SCANNED_KEYS) return true;
      if (isCandidateKey(key)) return true;
      stack.push((current as Record<string, unknown>)[key]);
    }
  }
  return false;
}
