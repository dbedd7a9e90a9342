import { objectNodes } from '../schema/object-nodes';
import { canonicalKey as canonical } from '../rules/unknown-keys';
import { foldKey, keyFolds, needsFolding } from '../text/key-folding';
import { CONTEXT_KEY_PROPERTIES, type Transformation } from '../types/execution';
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

/** The context names a model may never set (the same list the normalizer drops). */
const CONTEXT_NAMES = Object.keys(CONTEXT_KEY_PROPERTIES);
const BY_CANONICAL: ReadonlyMap<string, string> = new Map(CONTEXT_NAMES.map((name) => [canonical(name), name]));
/** The context names by their fold, built on the first key that needs folding (folding loads the confusables data). */
let byFolded: ReadonlyMap<string, string> | undefined;

/** Longest key compared with the context names (longer keys are no name, whatever they hold). */
const MAX_COMPARED_KEY_LENGTH = 1024;

/**
 * The context name a key imitates, when it is not one itself: one of its folds (text/key-folding: invisible code
 * points removed, the UTS #39 confusable skeleton, with and without NFKC and lower case, separators such as `/ : ·`
 * removed) reads as a context name
 * (`ｓｅｓｓｉｏｎ＿ｉｄ`, `session\u200b_id`, `ѕеѕѕіоn_іd`, `session/id`). A plain key (ASCII letters, digits, `_ - .`
 * and spaces) is never folded: it is the name, in some case and separator style, or another word.
 */
export function imitatedContextName(key: string): string | undefined {
  if (key.length > MAX_COMPARED_KEY_LENGTH || !needsFolding(key) || contextNameOf(key) !== undefined) return undefined;
  byFolded ??= new Map(CONTEXT_NAMES.map((name) => [foldKey(name), name]));
  for (const fold of keyFolds(key)) {
    const name = byFolded.get(fold);
    if (name !== undefined) return name;
  }
  return undefined;
}

/** The context name a key is (any case or the separators `_ - .` and spaces, as the normalizer matches it), or undefined. */
export function contextNameOf(key: string): string | undefined {
  return key.length > 64 ? undefined : BY_CANONICAL.get(canonical(key));
}

/** Most keys one call's arguments are scanned for (they are already within the size budget). */
const MAX_SCANNED_KEYS = 100_000;

/** Rules of the normalizer that read an object or array out of a string value (their `to` is the value read). */
const READ_FROM_TEXT: ReadonlySet<string> = new Set([
  'json-string-to-object',
  'json-string-to-array',
  'key-value-string-to-object',
]);

/** One container on the walk: its path is built from its parents only when an event needs it. */
interface Frame {
  readonly value: object;
  readonly parent: Frame | undefined;
  readonly key: string | number;
  readonly depth: number;
}

/** The path of `key` inside `frame`, in the pipeline's notation (`a.b[2].c`). */
function pathOf(frame: Frame | undefined, key: string | number): string {
  const parent = frame === undefined || frame.parent === undefined ? '' : pathOf(frame.parent, frame.key);
  return typeof key === 'number' ? `${parent}[${key}]` : parent === '' ? key : `${parent}.${key}`;
}

/**
 * Security events for keys anywhere in the (sanitized) arguments that the normalizer did not already report: a context
 * name nested inside a free-form object (`{"metadata": {"session_id": ...}}`), and a key that imitates a context name
 * (see imitatedContextName). One walk sees every object the call holds: the arguments' own, and the objects and arrays
 * the normalizer read out of string values (`{"metadata": "{\"ｓｅｓｓｉｏｎ＿ｉｄ\": 1}"}`, recorded as
 * `json-string-to-object` and the like in `transformations`), at the path of the string they were read from. Nothing
 * is set from them: context comes from the ExecutionContext only; the values stay where the schema puts them (data of
 * a free-form object, or a dropped key).
 */
export function findContextImpostors(
  value: unknown,
  reported: readonly SecurityEvent[],
  schema: ObjectSchema,
  transformations: readonly Transformation[] = [],
): SecurityEvent[] {
  if (typeof value !== 'object' || value === null) return [];
  let readFromText: Map<string, unknown> | undefined;
  for (const transformation of transformations) {
    if (READ_FROM_TEXT.has(transformation.rule) && typeof transformation.from === 'string')
      (readFromText ??= new Map()).set(transformation.from, transformation.to);
  }
  let events: SecurityEvent[] | undefined;
  let reportedPaths: ReadonlySet<string> | undefined;
  let reportedKeys: ReadonlySet<string> | undefined;
  const stack: Frame[] = [{ value, parent: undefined, key: '', depth: 0 }];
  let scanned = 0;
  const visit = (frame: Frame, key: string | number, child: unknown) => {
    let next = child;
    if (typeof next === 'string' && readFromText !== undefined && readFromText.has(next)) next = readFromText.get(next);
    if (typeof next === 'object' && next !== null)
      stack.push({ value: next, parent: frame, key, depth: frame.depth + 1 });
  };
  while (stack.length > 0 && scanned < MAX_SCANNED_KEYS) {
    const frame = stack.pop()!;
    const current = frame.value;
    if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index++) visit(frame, index, current[index]);
      continue;
    }
    for (const key of Object.keys(current)) {
      scanned++;
      if (isCandidateKey(key)) {
        const path = pathOf(frame, key);
        reportedPaths ??= new Set(reported.map((event) => event.path));
        reportedKeys ??= new Set(reported.map((event) => event.key));
        if (!reportedPaths.has(path) && !reportedKeys.has(key)) {
          const exact = contextNameOf(key);
          if (exact !== undefined) {
            if (frame.depth > 0 && !declaredNames(schema).has(key))
              (events ??= []).push({ kind: 'nested-context-name', path, key, contextKey: exact });
          } else {
            const imitated = imitatedContextName(key);
            if (imitated !== undefined)
              (events ??= []).push({ kind: 'look-alike-context-key', path, key, contextKey: imitated });
          }
        }
      }
      visit(frame, key, (current as Record<string, unknown>)[key]);
    }
  }
  return events ?? [];
}

/** Whether a key could be reported (a context name in any spelling, or a key that needs folding), remembered by key. */
const candidateKeys = new Map<string, boolean>();
const MAX_REMEMBERED_KEYS = 10_000;

function isCandidateKey(key: string): boolean {
  let candidate = candidateKeys.get(key);
  if (candidate === undefined) {
    candidate = contextNameOf(key) !== undefined || imitatedContextName(key) !== undefined;
    if (candidateKeys.size < MAX_REMEMBERED_KEYS) candidateKeys.set(key, candidate);
  }
  return candidate;
}
