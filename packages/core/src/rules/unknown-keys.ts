import { foldKey, keyFolds, needsFolding } from '../text/key-folding';
import type { Transformation, ValidationIssue } from '../types/execution';
import type { CoercionPolicy, ObjectSchema, PropertyDefinition } from '../types/schema';

/**
 * Unknown keys: what happens to a key of an object that names none of its properties (after the exact name, a declared
 * alias and the case-and-separator match `canonicalKey`). The one module that decides it and words it: the normalizer
 * asks {@link decideUnknownKey} for each such key once it has read every key of the object, and the executor asks
 * {@link onlyUnknownKeysIssue} after normalizing.
 *
 * - Under `strict`, every unknown key is refused ({@link unknownKeyIssue}).
 * - Otherwise a key that reads as a parameter the call did not send ({@link nearMiss}) is never dropped: a look-alike
 *   of exactly one parameter is repaired (`look-alike-key`), a misspelling of exactly one is refused with "did you
 *   mean" (repaired as `key-typo` under `lenient`), and a key that reads as several is refused naming them.
 * - Any other unknown key is dropped and recorded (`dropped-unknown-key`; past {@link MAX_LISTED_UNKNOWN_KEYS} per
 *   object, counted in one `dropped-unknown-keys`), unless every key of the call was: then the call is refused.
 *
 * Readings other than a misspelling or a look-alike are added as another {@link KeyReadingKind} and one more test in
 * {@link nearMiss}; the decision and the messages read the kind only.
 */

/** The key form used for spelling-insensitive matching: case, `_`, `-`, `.` and white space ignored. */
export function canonicalKey(key: string): string {
  // Most keys are already in this form (lower-case ASCII letters and digits): returned as they are, without the scan
  // and the copy of the regular expression (a 1 MiB call may hold 50,000 keys).
  for (let index = 0; index < key.length; index += 1) {
    const code = key.charCodeAt(index);
    if ((code < 97 || code > 122) && (code < 48 || code > 57)) return key.replace(/[-_\s.]/g, '').toLowerCase();
  }
  return key;
}

/** How an unknown key reads as a declared one. */
export type KeyReadingKind =
  /** One edit away (a letter replaced, added or left out, or two neighbours swapped), case and separators aside. */
  | 'misspelling'
  /** The same name once invisible code points, confusable letters (UTS #39) and compatibility forms are folded. */
  | 'look-alike'
  /** An object around (some of) the arguments: an arguments word, the tool's name, or the object's only key ({@link readEnvelope}). */
  | 'envelope';

/** A property an unknown key reads as: its place in the object's property list, and how. */
export interface KeyReading {
  readonly index: number;
  readonly kind: KeyReadingKind;
}

/** Keys longer than this (folded) read as nothing: no parameter name is that long, and the comparison stays small. */
const MAX_READ_KEY_LENGTH = 64;
/** A misspelling needs this many characters in the shorter form and one more in the longer (`tp_n` for `top_n`). */
const MIN_MISSPELLING_LENGTH = 2;

/**
 * Every property (model-visible: context fields are never a reading) that `key` could be a misspelling or a look-alike
 * of, by its name or one of its aliases, in declaration order.
 */
export function nearMiss(key: string, properties: readonly PropertyDefinition[]): KeyReading[] {
  const readings: KeyReading[] = [];
  const wanted = canonicalKey(key);
  if (wanted.length > MAX_READ_KEY_LENGTH) return readings;
  // A key of letters of other scripts, invisible code points or compatibility forms is compared by its folds too.
  const folds = needsFolding(key) ? keyFolds(key) : undefined;
  for (let index = 0; index < properties.length; index += 1) {
    const property = properties[index]!;
    if (property.context) continue;
    let kind: KeyReadingKind | undefined;
    const names = canonicalNames(property);
    for (let at = 0; at < names.length; at += 1) {
      if (folds !== undefined) {
        const folded = foldKey(at === 0 ? property.name : property.aliases[at - 1]!);
        if (folds.includes(folded)) {
          kind = 'look-alike';
          break;
        }
        if (folds.some((fold) => oneEditApart(fold, folded))) kind = 'misspelling';
      }
      if (oneEditApart(wanted, names[at]!)) kind ??= 'misspelling';
    }
    if (kind !== undefined) readings.push({ index, kind });
  }
  return readings;
}

/** The canonical forms of a property's name and aliases, in that order (made once per property definition). */
const CANONICAL_NAMES = new WeakMap<PropertyDefinition, readonly string[]>();

function canonicalNames(property: PropertyDefinition): readonly string[] {
  let names = CANONICAL_NAMES.get(property);
  if (names === undefined) {
    names = [property.name, ...property.aliases].map(canonicalKey);
    CANONICAL_NAMES.set(property, names);
  }
  return names;
}

/** Whether two key forms are one edit apart (not equal), both long enough for an edit to mean a misspelling. */
export function oneEditApart(a: string, b: string): boolean {
  const shorter = Math.min(a.length, b.length);
  const longer = Math.max(a.length, b.length);
  if (shorter < MIN_MISSPELLING_LENGTH || longer <= MIN_MISSPELLING_LENGTH || longer > MAX_READ_KEY_LENGTH)
    return false;
  return longer - shorter <= 1 && a !== b && oneEdit(a, b);
}

/**
 * Whether two different forms whose lengths differ by at most one are one edit apart (edit distance with adjacent
 * transpositions, optimal string alignment, equal to 1), in one pass and without a table: one letter added or left
 * out, one replaced, or two neighbours swapped. Its unit test holds it against the table's definition.
 */
function oneEdit(a: string, b: string): boolean {
  // The first place they differ (they do: a !== b), then the rest must match after the one edit.
  let start = 0;
  const limit = Math.min(a.length, b.length);
  while (start < limit && a.charCodeAt(start) === b.charCodeAt(start)) start += 1;
  if (a.length !== b.length) {
    const [short, long] = a.length < b.length ? [a, b] : [b, a];
    return sameFrom(short, start, long, start + 1);
  }
  // Replaced: the rest after this place matches.
  if (sameFrom(a, start + 1, b, start + 1)) return true;
  // Swapped with the next letter.
  return (
    start + 1 < a.length &&
    a.charCodeAt(start) === b.charCodeAt(start + 1) &&
    a.charCodeAt(start + 1) === b.charCodeAt(start) &&
    sameFrom(a, start + 2, b, start + 2)
  );
}

/** Whether `a` from `from` and `b` from `at` are the same text to their ends. */
function sameFrom(a: string, from: number, b: string, at: number): boolean {
  if (a.length - from !== b.length - at) return false;
  for (let offset = 0; from + offset < a.length; offset += 1)
    if (a.charCodeAt(from + offset) !== b.charCodeAt(at + offset)) return false;
  return true;
}

/** The transformation rule of each repair of an unknown key. */
export const REPAIR_RULES: Readonly<Record<KeyReadingKind, string>> = {
  misspelling: 'key-typo',
  'look-alike': 'look-alike-key',
  envelope: 'unwrapped-envelope',
};

/** What becomes of one unknown key (under a policy that coerces; `strict` refuses every one). */
export type UnknownKeyDecision =
  /** Dropped and recorded (`dropped-unknown-key`): it reads as nothing the call did not send. */
  | { readonly kind: 'drop' }
  /** Read as the property at `index` of the object's list, recorded under `rule`. */
  | { readonly kind: 'repair'; readonly index: number; readonly rule: string }
  | { readonly kind: 'refuse'; readonly issue: ValidationIssue };

const DROP: UnknownKeyDecision = Object.freeze({ kind: 'drop' });

/**
 * The decision for one unknown key `key` at `where` (its path) of an object whose properties are `properties`; `sent`
 * tells whether the call gave the property at an index a value (under any spelling). A key that reads as a property
 * the call sent is dropped: the call has that value.
 */
export function decideUnknownKey(
  key: string,
  where: string,
  properties: readonly PropertyDefinition[],
  sent: (index: number) => boolean,
  policy: CoercionPolicy,
): UnknownKeyDecision {
  const readings = nearMiss(key, properties);
  if (readings.length === 0 || readings.some((reading) => sent(reading.index))) return DROP;
  if (readings.length === 1) {
    const [reading] = readings as [KeyReading];
    if (reading.kind === 'look-alike' || policy === 'lenient')
      return { kind: 'repair', index: reading.index, rule: REPAIR_RULES[reading.kind] };
  }
  const names = readings.map((reading) => properties[reading.index]!.name);
  return { kind: 'refuse', issue: didYouMeanIssue(where, key, names) };
}

/** The refusal of a key that reads as the parameters `names` ("did you mean"). */
function didYouMeanIssue(where: string, key: string, names: readonly string[]): ValidationIssue {
  const quoted = names.map((name) => `"${name}"`);
  const meant = quoted.length === 1 ? quoted[0]! : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]!}`;
  return {
    path: where,
    rule: 'unknown-key',
    expected: names.length === 1 ? `the key ${meant}` : `one of the keys ${names.join(', ')}`,
    received: JSON.stringify(key),
    message:
      names.length === 1
        ? `"${where}" is not a parameter of this tool; did you mean ${meant}? Send the value under ${meant}.`
        : `"${where}" is not a parameter of this tool; did you mean ${meant}? Send the value under the one you meant.`,
  };
}

/** The transformation of an unknown key dropped at `where`. */
export function droppedUnknownKey(where: string, value: unknown): Transformation {
  return { path: where, rule: 'dropped-unknown-key', from: value, to: undefined };
}

/** The refusal of an unknown key under `strict` (`where`: its path). */
export function unknownKeyIssue(schema: ObjectSchema, where: string, key: string): ValidationIssue {
  const known = schema.properties.filter((property) => !property.context).map((property) => property.name);
  return {
    path: where,
    rule: 'unknown-key',
    expected: known.length > 0 ? `one of the keys ${known.join(', ')}` : 'no keys',
    received: JSON.stringify(key),
    message: `"${where}" is not a parameter of this tool; use only ${known.length > 0 ? known.map((name) => `"${name}"`).join(', ') : 'no parameters'}.`,
  };
}

/** Unknown keys of one object recorded one by one (a transformation, or under `strict` an issue); the rest are counted. */
export const MAX_LISTED_UNKNOWN_KEYS = 20;

/** One transformation (or issue) for the unknown keys of an object past `MAX_LISTED_UNKNOWN_KEYS`. */
export function summarizeUnknownKeys(
  state: { readonly transformations: Transformation[]; readonly issues: ValidationIssue[] },
  path: string,
  more: number,
  coerce: boolean,
  schema: ObjectSchema,
): void {
  const where = path === '' ? 'the arguments' : `"${path}"`;
  if (coerce) {
    state.transformations.push({
      path,
      rule: 'dropped-unknown-keys',
      from: `${more} more unknown keys`,
      to: undefined,
    });
    return;
  }
  const known = schema.properties.filter((property) => !property.context).map((property) => `"${property.name}"`);
  const message = `${more} more keys of ${where} are not parameters of this tool; use only ${known.length > 0 ? known.slice(0, 20).join(', ') : 'no parameters'}.`;
  state.issues.push({
    path,
    rule: 'unknown-key',
    expected: known.length > 0 ? `only the keys ${known.join(', ')}` : 'no keys',
    received: `${more} more unknown keys`,
    message,
  });
}

/** How many of the keys sent the issue names (the rest are counted). */
const MAX_NAMED_KEYS = 5;

/**
 * A call whose every key was dropped as unknown (`{"query": "cats"}` to a tool whose parameters are `q` and `limit`; a
 * `{"tool_uses": [...]}` wrapper) is refused with the tool's parameter names, never run with nothing. `kept` is what
 * normalizing (step 4) kept, `transformations` what it recorded. A tool without parameters the model sets keeps
 * running with `{}`: there was nothing the model could have meant.
 */
export function onlyUnknownKeysIssue(
  kept: Record<string, unknown>,
  transformations: readonly Transformation[],
  parameters: ObjectSchema,
): ValidationIssue | undefined {
  for (const key in kept) if (Object.prototype.hasOwnProperty.call(kept, key)) return undefined;
  const names = parameters.properties.filter((property) => !property.context).map((property) => property.name);
  if (names.length === 0) return undefined;
  // Nothing was kept, so no property was read: every unknown key dropped is one of the top level's.
  const dropped: string[] = [];
  let more = 0;
  for (const transformation of transformations) {
    if (transformation.rule === 'dropped-unknown-key') dropped.push(transformation.path);
    else if (transformation.rule === 'dropped-unknown-keys') more++;
  }
  if (dropped.length === 0 && more === 0) return undefined;
  const sent = dropped.slice(0, MAX_NAMED_KEYS).map((key) => JSON.stringify(key));
  const listed = `${sent.join(', ')}${dropped.length > MAX_NAMED_KEYS || more > 0 ? ', ...' : ''}`;
  const wanted = names.map((name) => `"${name}"`).join(', ');
  return {
    path: '',
    rule: 'unknown-keys-only',
    expected: `at least one of the keys ${names.join(', ')}`,
    received: `only unknown keys (${listed})`,
    message: `None of the keys sent (${listed}) is a parameter of this tool, so the call would run without any of its values; send the arguments under the tool's parameter names: ${wanted}.`,
  };
}

/** The keys that name an envelope around the arguments wherever they sit: the words models and serving stacks use. */
export const ARGUMENTS_WORDS: ReadonlySet<string> = new Set(['arguments', 'parameters', 'args', 'input', 'params']);

/** What {@link readEnvelope} needs to know of the tool: which keys it declares, which names are its own, what it accepts. */
export interface EnvelopeTarget {
  readonly tool: string;
  declares(key: string): boolean;
  names(name: string): boolean;
  /** The value as the tool reads it when it accepts it as its whole arguments (else undefined); absent: unknown. */
  accepts?(value: Record<string, unknown>): Record<string, unknown> | undefined;
}

/** What becomes of the unknown keys of the arguments' top level that hold objects. */
export type EnvelopeReading =
  /** No unknown key holds the tool's parameters: the keys are decided one by one ({@link decideUnknownKey}). */
  | { readonly kind: 'none' }
  /** The envelope under `key` is read as arguments: `value` is the top level with its content in its place. */
  | {
      readonly kind: 'envelope';
      readonly key: string;
      readonly value: Record<string, unknown>;
      readonly removed: readonly string[];
    }
  | { readonly kind: 'refuse'; readonly message: string };

const NO_ENVELOPE: EnvelopeReading = Object.freeze({ kind: 'none' });

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The envelope reading of the arguments' top level (`value`): an unknown key is an envelope only when it is one, an
 * arguments word ({@link ARGUMENTS_WORDS}), a key that names this tool, or the object's only key when its value is an
 * object the tool accepts. Its content then joins the top level (a parameter given at both places with different values
 * is refused), and a sibling `name` that names this tool goes with it. Any other unknown key whose object holds one of
 * the tool's parameters is refused, naming it: `{"query": "cats", "filters": {"name": "bob"}}` never becomes
 * `name: "bob"`. Keys the tool declares are never envelopes.
 */
export function readEnvelope(value: Record<string, unknown>, target: EnvelopeTarget): EnvelopeReading {
  let envelope: string | undefined;
  let keys = 0;
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    keys++;
    if (target.declares(key)) continue;
    const inner = value[key];
    if (!isPlainObject(inner)) continue;
    const holdsParameters = Object.keys(inner).some((innerKey) => target.declares(innerKey));
    if (!holdsParameters) continue;
    const word = ARGUMENTS_WORDS.has(key.toLowerCase()) || target.names(key);
    if (!word) {
      return {
        kind: 'refuse',
        message: `The arguments hold parameters of "${target.tool}" inside "${clipKey(key)}", which is not a parameter of this tool nor a wrapper of its arguments; send every parameter at the top level of the arguments object.`,
      };
    }
    if (envelope !== undefined)
      return {
        kind: 'refuse',
        message: `The arguments hold parameters of "${target.tool}" inside both "${clipKey(envelope)}" and "${clipKey(key)}"; send every parameter once, at the top level of the arguments object.`,
      };
    envelope = key;
  }
  if (envelope === undefined) {
    // The only key, holding an object the tool accepts whole (`{"payload": {...}}`).
    if (keys !== 1 || target.accepts === undefined) return NO_ENVELOPE;
    const only = Object.keys(value)[0]!;
    const inner = value[only];
    if (target.declares(only) || !isPlainObject(inner) || target.accepts(inner) === undefined) return NO_ENVELOPE;
    return { kind: 'envelope', key: only, value: inner, removed: [only] };
  }
  const inner = value[envelope] as Record<string, unknown>;
  const merged: Record<string, unknown> = {};
  const removed = [envelope];
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key) || key === envelope) continue;
    const sibling = value[key];
    if (key === 'name' && !target.declares(key) && typeof sibling === 'string') {
      if (!target.names(sibling))
        return {
          kind: 'refuse',
          message: `The arguments name the tool "${clipKey(sibling)}" beside the arguments of "${target.tool}"; call "${clipKey(sibling)}" directly, or send only the arguments object of "${target.tool}".`,
        };
      removed.push(key);
      continue;
    }
    merged[key] = sibling;
  }
  for (const key in inner) {
    if (!Object.prototype.hasOwnProperty.call(inner, key)) continue;
    const canonical = canonicalKey(key);
    const twin = Object.keys(merged).find((other) => canonicalKey(other) === canonical);
    if (twin !== undefined && !sameValue(merged[twin], inner[key]))
      return {
        kind: 'refuse',
        message: `The arguments give "${clipKey(key)}" both at the top level and inside "${clipKey(envelope)}", with different values; send it once, with the value you mean.`,
      };
    if (twin === undefined) merged[key] = inner[key];
  }
  return { kind: 'envelope', key: envelope, value: merged, removed };
}

/** Equal values (JSON's model; anything JSON cannot print counts as different: the safe side). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

function clipKey(key: string): string {
  return key.length > 60 ? `${key.slice(0, 57)}...` : key;
}
