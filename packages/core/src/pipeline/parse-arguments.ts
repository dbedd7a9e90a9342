import { InvalidArgumentsError } from '../errors/invalid-arguments-error';
import { MalformedArgumentsError } from '../errors/malformed-arguments-error';
import { ToolCallError } from '../errors/tool-call-error';
import type { CoercionPolicy } from '../types/schema';
import type { Transformation } from '../types/execution';
import type { PipelineLimits } from './limits';
import { scanJsonText, type JsonTextScan } from './scan-json-text';
import { tooDeepError } from './json-text-rules';
import { describeReceived, messages } from './messages';
import { deepEqual } from './deep-equal';
import { isSyntaxFailure, readerMessages, readJsonLike } from './read-json-like';
import { editRule, searchReadings } from './reading-search';
import { withoutControlTokens } from './control-tokens';
import {
  countQuotes,
  DROPPED_MEMBER_LENGTH,
  informationLoss,
  InformationLoss,
  mayLoseInformationByScan,
  NOT_ACCEPTED,
} from './information-loss';
import { isObject, unwrapCall, type CallTarget } from './unwrap-call';
import { readEnvelope, REPAIR_RULES as KEY_REPAIR_RULES } from '../rules/unknown-keys';

export type { CallTarget } from './unwrap-call';

export interface ParsedArguments {
  readonly value: Record<string, unknown>;
  readonly transformations: Transformation[];
  /** The value was parsed from text here, so it is the pipeline's own (no caller holds a reference to it). */
  readonly owned: boolean;
}

const MAX_ENCODING_LEVELS = 3;
/** Fences inside fences are unwrapped this many levels deep, no more. */
const MAX_FENCE_LEVELS = 2;
const FENCE = '```';
/** Texts longer than this get their nesting counted before JSON.parse sees them. */
const DEPTH_SCAN_THRESHOLD = 4096;
const TOOL_CALL_OPEN = '<tool_call>';
const TOOL_CALL_CLOSE = '</tool_call>';

/**
 * A tool's canonical check as the parse step uses it (`compile/canonical-check.ts`): `accept` answers `NOT_ACCEPTED`,
 * or the accepted value's lower bound of its text's length (`NaN` past 2^53); right after it accepted a value,
 * `keysAndStrings` is the number of keys and strings in it (text without a backslash that lost nothing holds twice as
 * many `"`).
 */
export interface BoundedCheck {
  accept(value: unknown): number;
  readonly keysAndStrings: number;
}

/** What one parse threads through its steps. */
interface ParseRun {
  readonly policy: CoercionPolicy;
  readonly limits: PipelineLimits;
  readonly transformations: Transformation[];
  readonly target: CallTarget | undefined;
  /** The text came out of a `<tool_call>` block: it must be a call envelope. */
  envelopeRequired: boolean;
  /** Test-only: the checks in their reference form (a scan before JSON.parse, the text scan after it). */
  readonly reference: boolean;
}

/**
 * Pipeline step 3: read the arguments (text or an already-parsed object) as one JSON object.
 * Lossless repairs are recorded as transformations; anything that would need a guess is refused.
 * Under `strict`, only plain JSON (or an object, or nothing) is accepted. Every path is linear in the text.
 * With a `target` (the resolved tool), a whole call wrapped around the arguments is unwrapped when it names that
 * tool, and refused when it names another.
 */
export function parseArguments(
  raw: unknown,
  policy: CoercionPolicy,
  limits: PipelineLimits,
  target?: CallTarget,
): ParsedArguments {
  return parse(raw, policy, limits, target, false);
}

/**
 * {@link parseArguments} with its checks in their reference form, before they were made cheap: the nesting scan before JSON.parse
 * of every long text, and the text scan for lost information after it. The differential tests' reference.
 */
export function parseArgumentsReference(
  raw: unknown,
  policy: CoercionPolicy,
  limits: PipelineLimits,
  target?: CallTarget,
): ParsedArguments {
  return parse(raw, policy, limits, target, true);
}

/**
 * {@link ParsedArguments} and the tool's canonical check's answer on them: what {@link parseCheckedArguments} answers
 * for every call but the direct one (a class, so that the direct answer is told apart by one `instanceof`: JSON.parse
 * makes plain objects, whose prototype is `Object.prototype`, never this class's).
 */
export class CheckedArguments {
  constructor(
    readonly value: Record<string, unknown>,
    readonly transformations: readonly Transformation[],
    readonly owned: boolean,
    /** The value is the pipeline's own (`owned`) and the canonical check accepted it. */
    readonly accepted: boolean,
  ) {}
}

/**
 * {@link parseArguments} followed by the tool's canonical check (`check`, when there is one) on the result, with the
 * two walks over the value folded into one where they can be (the fused parse and check): for text that is one
 * object, the check runs on JSON.parse's value first and measures what the information-loss walk measures (the lower bound
 * of the text's length, the keys and strings). When it accepts and the text has no backslash and is shorter than the
 * bound plus a dropped member, or has no backslash and holds twice as many `"` as the value has keys and strings,
 * JSON.parse lost nothing
 * and the value is the result (no other step of the parse would have changed it: it is an object, not an envelope,
 * and the text was read at the top). Otherwise the parse continues from JSON.parse's result exactly as
 * {@link parseArguments} does, and the check's answer is reused only for the very object it was given. `target` must
 * declare every property name `check` accepts (`callTargetFor` of the same definition does).
 *
 * The direct answer (JSON.parse's value, accepted, decided as above) is that value itself: the pipeline's own, accepted,
 * nothing recorded; no record is made for it (an accepted call's most common path). Every other answer is a
 * {@link CheckedArguments}.
 */
export function parseCheckedArguments(
  raw: unknown,
  policy: CoercionPolicy,
  limits: PipelineLimits,
  target: CallTarget | undefined,
  check: BoundedCheck | undefined,
): Record<string, unknown> | CheckedArguments {
  if (check === undefined || typeof raw !== 'string') {
    const parsed = parse(raw, policy, limits, target, false);
    const accepted = check !== undefined && parsed.owned && check.accept(parsed.value) !== NOT_ACCEPTED;
    return new CheckedArguments(parsed.value, parsed.transformations, parsed.owned, accepted);
  }
  checkSize(raw, limits);
  // `trim` returns the text itself when it starts with `{` and ends with `}` (no white space to cut).
  const trimmed = raw.charCodeAt(0) === 123 && raw.charCodeAt(raw.length - 1) === 125 ? raw : raw.trim();
  let parsed: unknown;
  let parsedOk = false;
  let depthUnchecked = false;
  if (trimmed !== '') {
    depthUnchecked = checkNestingFirst(trimmed, limits, false);
    try {
      parsed = JSON.parse(trimmed);
      parsedOk = true;
    } catch {
      parsedOk = false;
    }
  }
  let bound = NOT_ACCEPTED;
  if (parsedOk && typeof parsed === 'object' && parsed !== null) {
    bound = check.accept(parsed);
    // An accepted value holds no prototype key, no array or nesting beyond a limit and (a bound that is a number) no
    // number beyond 2^53: the walk's other facts. Then JSON.parse lost nothing when the text is shorter than the bound
    // plus a dropped member (an escape only makes a literal longer than its string, so this holds with backslashes
    // too, where the key count of decision 0019 would find the same), or when text without a backslash holds twice as
    // many `"` as the value has keys and strings. The target declares every key of an accepted value (its exact
    // property names), so `unwrapCall` would not take it for an envelope.
    if (
      bound >= 0 &&
      (trimmed.length < bound + DROPPED_MEMBER_LENGTH ||
        (trimmed.indexOf('\\') === -1 && countQuotes(trimmed) === 2 * check.keysAndStrings))
    )
      return parsed as Record<string, unknown>;
  }
  // Everything else: the parse step as `parseArguments` takes it, from JSON.parse's result on.
  const transformations: Transformation[] = [];
  const run: ParseRun = { policy, limits, transformations, target, envelopeRequired: false, reference: false };
  const value =
    trimmed === '' ? parseText(raw, run, 0, 0) : afterJsonParse(trimmed, parsed, parsedOk, depthUnchecked, run, 0, 0);
  const unwrapped = unwrap(value, run, true);
  // The check's answer on JSON.parse's value holds for that very object; any other value is checked now.
  if (!unwrapped.owned) return new CheckedArguments(unwrapped.value, transformations, false, false);
  if (parsedOk && unwrapped.value === parsed)
    return new CheckedArguments(unwrapped.value, transformations, true, bound !== NOT_ACCEPTED);
  return new CheckedArguments(unwrapped.value, transformations, true, check.accept(unwrapped.value) !== NOT_ACCEPTED);
}

function parse(
  raw: unknown,
  policy: CoercionPolicy,
  limits: PipelineLimits,
  target: CallTarget | undefined,
  reference: boolean,
): ParsedArguments {
  const transformations: Transformation[] = [];
  if (raw === undefined || raw === null) {
    transformations.push({ path: '', rule: 'empty-arguments', from: raw, to: {} });
    return { value: {}, transformations, owned: true };
  }
  const run: ParseRun = { policy, limits, transformations, target, envelopeRequired: false, reference };
  if (typeof raw === 'object') {
    // A one-element array holding the arguments object is read the same as its text (`[{"q": "cats"}]`).
    const object = Array.isArray(raw) ? fromArray(raw as unknown[], run, false) : (raw as Record<string, unknown>);
    const unwrapped = unwrap(object, run, false);
    return { value: unwrapped.value, transformations, owned: unwrapped.owned };
  }
  if (typeof raw !== 'string') throw new MalformedArgumentsError(messages.notAnObject(describeReceived(raw)));
  checkSize(raw, limits);
  const unwrapped = unwrap(parseText(raw, run, 0, 0), run, true);
  return { value: unwrapped.value, transformations, owned: unwrapped.owned };
}

/**
 * Step 3b: a whole call wrapped around the arguments (`{"name": ..., "arguments": ...}`, a provider's tool-call
 * object) is unwrapped once when it names this tool; `owned` tells whether the result was read from text here.
 */
function unwrap(
  value: Record<string, unknown>,
  run: ParseRun,
  owned: boolean,
): { value: Record<string, unknown>; owned: boolean } {
  const outcome = run.target === undefined ? undefined : unwrapCall(value, run.target, run.policy);
  if (outcome === undefined) {
    if (run.envelopeRequired) {
      throw new MalformedArgumentsError(
        `The <tool_call> block does not hold a call${run.target ? ` of "${run.target.tool}"` : ''} ({"name": ..., "arguments": {...}}); send only the arguments object.`,
      );
    }
    // An envelope beside parameters sent flat, or around all of them (`{"p": 1, "arguments": {...}}`): the unknown-key
    // rule reads it, so its content is never dropped with it.
    if (run.target !== undefined && run.policy !== 'strict') {
      const reading = readEnvelope(value, run.target);
      if (reading.kind === 'refuse') throw new MalformedArgumentsError(reading.message);
      if (reading.kind === 'envelope') {
        run.transformations.push({
          path: reading.key,
          rule: KEY_REPAIR_RULES.envelope,
          from: value,
          to: reading.value,
        });
        return { value: reading.value, owned };
      }
    }
    return { value, owned };
  }
  run.transformations.push({ path: '', rule: 'unwrapped-call', from: value, to: outcome.arguments });
  const inner = outcome.arguments;
  if (inner === undefined || inner === null) return { value: {}, owned: true };
  if (typeof inner === 'string') {
    checkSize(inner, run.limits);
    return { value: parseText(inner, { ...run, envelopeRequired: false }, 0, 0), owned: true };
  }
  if (!isObject(inner)) throw new MalformedArgumentsError(messages.notAnObject(describeReceived(inner)));
  return { value: inner, owned };
}

function checkSize(text: string, limits: PipelineLimits): void {
  // A string of n UTF-16 units holds between n and 3n UTF-8 bytes: only count when it matters.
  if (
    text.length > limits.maxArgumentsBytes ||
    (text.length * 3 > limits.maxArgumentsBytes && Buffer.byteLength(text, 'utf8') > limits.maxArgumentsBytes)
  ) {
    throw new InvalidArgumentsError(messages.argumentsTooLarge(limits.maxArgumentsBytes), {
      issues: [
        {
          path: '',
          rule: 'max-size',
          expected: `at most ${limits.maxArgumentsBytes} bytes`,
          message: messages.argumentsTooLarge(limits.maxArgumentsBytes),
        },
      ],
    });
  }
}

function parseText(text: string, run: ParseRun, level: number, fenceLevel: number): Record<string, unknown> {
  const { limits, transformations } = run;
  const trimmed = text.trim();
  if (trimmed === '') {
    transformations.push({ path: '', rule: 'empty-arguments', from: text, to: {} });
    return {};
  }
  // Valid JSON is the common case: V8's JSON.parse is iterative (any depth is safe) and the sanitize walk enforces
  // the depth limit on its result. One walk over the parsed value (and, when it holds keys, one cheap look at the
  // text) tells whether JSON.parse lost anything (a key given twice, an integer beyond 2^53); only then does the
  // reader read it again, exactly.
  // A long text's nesting is checked before anything else reads it: see `nestingCheck`.
  const depthUnchecked = checkNestingFirst(trimmed, limits, run.reference);
  let parsed: unknown;
  let parsedOk = false;
  try {
    parsed = JSON.parse(trimmed);
    parsedOk = true;
  } catch {
    parsedOk = false;
  }
  return afterJsonParse(trimmed, parsed, parsedOk, depthUnchecked, run, level, fenceLevel);
}

/**
 * A long text's nesting, checked before anything else reads it (see {@link nestingCheck}): throws when it is too deep;
 * `true` when the check is left to the steps after JSON.parse.
 */
function checkNestingFirst(trimmed: string, limits: PipelineLimits, reference: boolean): boolean {
  if (trimmed.length <= DEPTH_SCAN_THRESHOLD) return false;
  const check = reference ? NestingCheck.ScanFirst : nestingCheck(trimmed, limits.maxDepth);
  if (check === NestingCheck.ScanFirst) scanWithinDepth(trimmed, limits);
  return check === NestingCheck.AfterParse;
}

/** The rest of {@link parseText} once JSON.parse has read the trimmed text (`parsedOk`) or refused it. */
function afterJsonParse(
  trimmed: string,
  parsed: unknown,
  parsedOk: boolean,
  depthUnchecked: boolean,
  run: ParseRun,
  level: number,
  fenceLevel: number,
): Record<string, unknown> {
  const { policy, limits, transformations } = run;
  if (!parsedOk && depthUnchecked) scanWithinDepth(trimmed, limits);
  if (parsedOk) {
    let lossPossible: boolean;
    if (run.reference) lossPossible = mayLoseInformationByScan(trimmed, parsed);
    else {
      const loss = informationLoss(trimmed, parsed, limits);
      // Valid JSON text nests exactly as deep as its value when JSON.parse dropped nothing (a dropped duplicate may
      // have nested deeper): then the walk says what the scan would have; else the scan counts.
      if (depthUnchecked && loss !== InformationLoss.None) scanWithinDepth(trimmed, limits);
      lossPossible =
        loss === InformationLoss.TooDeep
          ? mayLoseInformationByScan(trimmed, parsed)
          : loss === InformationLoss.Possible;
    }
    // The reader reads objects and arrays only: a lone number is refused as not an object either way.
    if (!lossPossible || typeof parsed !== 'object' || parsed === null)
      return fromParsedValue(parsed, trimmed, run, level, fenceLevel);
    const document = read(trimmed, run);
    const duplicate = document.records.find((record) => record.rule === 'duplicate-key');
    if (policy === 'strict' && duplicate !== undefined) {
      throw new MalformedArgumentsError(`The arguments give "${duplicate.path}" more than once; send each key once.`);
    }
    return fromParsedValue(document.values[0]!.value, trimmed, run, level, fenceLevel);
  }
  if (policy === 'strict') {
    scanWithinDepth(trimmed, limits);
    throw new MalformedArgumentsError(messages.notJsonStrict(trimmed));
  }

  const fenced = fencedContent(trimmed);
  if (fenced !== undefined) {
    if (fenceLevel >= MAX_FENCE_LEVELS)
      throw new MalformedArgumentsError(
        `The arguments are inside more than ${MAX_FENCE_LEVELS} nested code fences; send the JSON object alone.`,
      );
    transformations.push({ path: '', rule: 'fenced-block', from: trimmed, to: fenced });
    return parseText(fenced, run, level, fenceLevel + 1);
  }
  if (trimmed.startsWith(TOOL_CALL_OPEN)) {
    const inner = toolCallBlockContent(trimmed);
    transformations.push({ path: '', rule: 'tool-call-block', from: trimmed, to: inner });
    run.envelopeRequired = true;
    return parseText(inner, run, level, fenceLevel);
  }

  // Serving-stack artefacts: control tokens a stop sequence let through around the text, and an escaping layer a
  // transport applied to the whole text. Each has one reading by construction (see `withoutControlTokens`, `escapedText`).
  const tokens = withoutControlTokens(trimmed);
  if (tokens.removed.length > 0) {
    transformations.push({ path: '', rule: 'control-token', from: trimmed, to: tokens.text });
    return parseText(tokens.text, run, level, fenceLevel);
  }
  const unescaped = level < MAX_ENCODING_LEVELS ? escapedText(trimmed) : undefined;
  if (unescaped !== undefined) {
    transformations.push({ path: '', rule: 'escaped-text', from: trimmed, to: unescaped });
    return parseText(unescaped, run, level + 1, fenceLevel);
  }

  let document: unknown;
  try {
    document = readTolerantly(trimmed, run);
  } catch (error) {
    const reading = isSyntaxFailure(error) ? searchedReading(trimmed, run) : undefined;
    if (reading === undefined) throw error;
    return parseText(reading, run, level, fenceLevel);
  }
  if (document === undefined) {
    // Text after what the reader read (`{"a": 1,} "b": 2}`): a damaged document has its one reading, prose has none.
    const reading = searchedReading(trimmed, run);
    if (reading !== undefined) return parseText(reading, run, level, fenceLevel);
    return fromProse(trimmed, run, level, fenceLevel);
  }
  return fromParsedValue(document, trimmed, run, level, fenceLevel);
}

/**
 * The one reading of text the reader refused for its syntax, found by the reading search (`reading-search.ts`) with the
 * tool's acceptance: the edited text, its edits recorded. Throws when readings disagree; `undefined` when there is
 * none (or the text is cut off, or the search overflowed): the reader's refusal stands.
 */
function searchedReading(text: string, run: ParseRun): string | undefined {
  const target = run.target;
  const outcome = searchReadings(text, target?.accepts ? (value) => target.accepts!(value) : (value) => value);
  if (outcome.kind === 'several')
    throw new MalformedArgumentsError(
      `The arguments are not valid JSON, and the smallest repairs read them in more than one way (${describeReceived(outcome.first)} and ${describeReceived(outcome.second)}); send one valid JSON object.`,
    );
  if (outcome.kind !== 'one') return undefined;
  let offset = 0;
  for (const edit of outcome.edits) {
    const at = edit.at;
    run.transformations.push({
      path: '',
      rule: editRule(edit),
      from: `${edit.removed === '' ? 'nothing' : JSON.stringify(edit.removed)} at character ${at + 1 - offset}`,
      to: edit.inserted === '' ? undefined : edit.inserted,
    });
    offset += edit.inserted.length - edit.removed.length;
  }
  return outcome.text;
}

/**
 * Quotes inside a string read as part of it (`inner-quotes`) are one reading of the text: escaping them. When one
 * structural edit (a quote removed, a comma inserted, ...) reads the text as another value the tool takes, the text has
 * two readings, and is refused (`{"city": ""Paris"}`: `"Paris` or `Paris`).
 */
function innerQuotesHaveOneReading(text: string, value: unknown, run: ParseRun): void {
  if (!isObject(value)) return;
  const target = run.target;
  const accepts = target?.accepts ? (candidate: Record<string, unknown>) => target.accepts!(candidate) : undefined;
  const read = accepts ? accepts(value) : value;
  if (read === undefined) return;
  const outcome = searchReadings(text, accepts ?? ((candidate) => candidate), 1);
  const other = outcome.kind === 'one' ? outcome.value : outcome.kind === 'several' ? read : undefined;
  if (other === undefined || (outcome.kind === 'one' && deepEqual(other, read))) return;
  throw new MalformedArgumentsError(readerMessages.ambiguousQuotes());
}

/** The bracket scan of a text, refused when the text nests deeper than the limit. */
function scanWithinDepth(text: string, limits: PipelineLimits): JsonTextScan {
  const scan = scanJsonText(text, limits.maxDepth);
  if (scan.maxDepth > limits.maxDepth) throw tooDeepError(limits.maxDepth);
  return scan;
}

function read(text: string, run: ParseRun) {
  const sensitive = run.target?.sensitive?.bind(run.target);
  const document = readJsonLike(text, {
    maxDepth: run.limits.maxDepth,
    maxArrayItems: run.limits.maxArrayItems,
    ...(sensitive ? { sensitive } : {}),
  });
  for (const record of document.records) run.transformations.push(record);
  return document;
}

/** The value of text that is not JSON, read by the tolerant reader; `undefined` when it is surrounded by prose. */
function readTolerantly(text: string, run: ParseRun): unknown {
  const document = read(text, run);
  const { values } = document;
  if (document.textOutside || values.length === 0) return undefined;
  if (values.length >= 2) {
    const first = values[0]!;
    const different = values.find((candidate) => !deepEqual(candidate.value, first.value));
    if (different !== undefined) {
      throw new MalformedArgumentsError(
        messages.distinctObjects(
          text.slice(first.start, first.end),
          text.slice(different.start, different.end),
          values.length,
        ),
      );
    }
    if (!isObject(first.value)) throw new MalformedArgumentsError(messages.notAnObject(describeReceived(first.value)));
    run.transformations.push({ path: '', rule: 'repeated-object', from: text, to: first.value });
  }
  const value = values[0]!.value;
  if (document.repairs.includes('inner-quotes')) innerQuotesHaveOneReading(text, value, run);
  const repairs = document.repairs.length > 0 ? document.repairs : values.length >= 2 ? [] : ['repaired-json'];
  for (const rule of repairs) run.transformations.push({ path: '', rule, from: text, to: value });
  return value;
}

function fromProse(text: string, run: ParseRun, level: number, fenceLevel: number): Record<string, unknown> {
  const scan = scanWithinDepth(text, run.limits);
  const spans = scan.topLevelSpans;
  if (run.policy !== 'strict') {
    const embedded =
      run.policy === 'safe'
        ? onlyObjectInProse(text, scan)
        : scan.spanCount > spans.length
          ? undefined
          : findEmbeddedObject(text, spans);
    if (embedded !== undefined) {
      run.transformations.push({ path: '', rule: 'object-in-prose', from: text, to: embedded });
      return parseText(embedded, run, level, fenceLevel);
    }
  }
  throw new MalformedArgumentsError(
    scan.spanCount === 0
      ? messages.notAnObject(describeReceived(text))
      : messages.objectInProse(describeReceived(text)),
  );
}

function fromParsedValue(
  parsed: unknown,
  text: string,
  run: ParseRun,
  level: number,
  fenceLevel: number,
): Record<string, unknown> {
  const { policy, transformations } = run;
  if (parsed === null) {
    transformations.push({ path: '', rule: 'empty-arguments', from: text, to: {} });
    return {};
  }
  if (typeof parsed === 'string') {
    if (policy === 'strict' || level >= MAX_ENCODING_LEVELS)
      throw new MalformedArgumentsError(messages.notAnObject(describeReceived(parsed)));
    transformations.push({ path: '', rule: 'double-encoded-json', from: text, to: parsed });
    checkSize(parsed, run.limits);
    return parseText(parsed, run, level + 1, fenceLevel);
  }
  if (isObject(parsed)) return parsed;
  if (Array.isArray(parsed)) return fromArray(parsed, run, true);
  throw new MalformedArgumentsError(messages.notAnObject(describeReceived(parsed)));
}

/**
 * An array where the arguments object belongs, read from text (`parsed`) or sent as a value: the object of a
 * one-element array. Objects the caller sent are described, not serialized (they may be large, or cyclic).
 */
function fromArray(array: readonly unknown[], run: ParseRun, parsed: boolean): Record<string, unknown> {
  if (run.policy !== 'strict' && array.length > 0 && array.every(isObject)) {
    if (array.length === 1) {
      run.transformations.push({ path: '', rule: 'single-element-array', from: array, to: array[0] });
      return array[0] as Record<string, unknown>;
    }
    throw new MalformedArgumentsError(
      parsed
        ? messages.distinctObjects(JSON.stringify(array[0]), JSON.stringify(array[1]), array.length)
        : messages.distinctObjects(describeReceived(array[0]), describeReceived(array[1]), array.length),
    );
  }
  throw new MalformedArgumentsError(messages.notAnObject(describeReceived(array)));
}

/** How a long text's nesting gets checked against the depth limit. */
const enum NestingCheck {
  /** It has no more opening brackets than the limit allows levels: it cannot nest too deep. */
  NotNeeded,
  /** Few enough brackets for JSON.parse to read it cheaply: JSON.parse first, then the walk (or the scan) decides. */
  AfterParse,
  /** Too many brackets: the scan counts the nesting before JSON.parse sees the text. */
  ScanFirst,
}

/**
 * V8's JSON.parse spends about 100-130 ns per level of nesting (about 8 ms for 65,536 levels, 50 ms for 262,144;
 * measured on Node 22), against about 3.5 ns per character for the nesting scan. A text with at most one opening
 * bracket per 32 characters cannot nest deeply enough for JSON.parse to spend more on its nesting than the scan would
 * on the whole text, so JSON.parse reads it first, and the walk over its value (valid JSON) or the scan (anything
 * else) checks the depth before anything else reads the text. The brackets are counted with `indexOf` (brackets in
 * strings too: an upper bound of the depth), stopping at the cap.
 */
function nestingCheck(text: string, maxDepth: number): NestingCheck {
  const cap = Math.max(maxDepth, text.length >> 5);
  let openings = 0;
  for (let at = text.indexOf('{'); at !== -1; at = text.indexOf('{', at + 1))
    if (++openings > cap) return NestingCheck.ScanFirst;
  for (let at = text.indexOf('['); at !== -1; at = text.indexOf('[', at + 1))
    if (++openings > cap) return NestingCheck.ScanFirst;
  return openings <= maxDepth ? NestingCheck.NotNeeded : NestingCheck.AfterParse;
}

/**
 * Text a transport escaped as a whole (`{\\"q\\": \\"cats\\"}`: the arguments written as the inside of a JSON string):
 * it opens with a bracket and an escaped quote, and holds no quote that is not escaped, so it is no JSON and no Python
 * literal, and its one reading is the string's content. Undefined for any other text.
 */
function escapedText(text: string): string | undefined {
  const first = text.charCodeAt(0);
  if ((first !== 123 && first !== 91) || text.indexOf('\\"') === -1) return undefined;
  for (let at = text.indexOf('"'); at !== -1; at = text.indexOf('"', at + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return undefined;
  }
  try {
    const content: unknown = JSON.parse(`"${text}"`);
    return typeof content === 'string' ? content : undefined;
  } catch {
    return undefined;
  }
}

/** The content of text that is one fenced block (```json ... ```), found without a regular expression. */
function fencedContent(text: string): string | undefined {
  if (text.length < 2 * FENCE.length || !text.startsWith(FENCE) || !text.endsWith(FENCE)) return undefined;
  let start = FENCE.length;
  while (start < text.length - FENCE.length && /[\w-]/.test(text[start]!)) start++;
  while (text[start] === ' ' || text[start] === '\t') start++;
  if (text[start] === '\r') start++;
  if (text[start] === '\n') start++;
  let end = text.length - FENCE.length;
  while (end > start && (text[end - 1] === ' ' || text[end - 1] === '\t')) end--;
  if (text[end - 1] === '\n') end--;
  if (text[end - 1] === '\r') end--;
  return end >= start ? text.slice(start, end) : '';
}

/** The JSON inside one `<tool_call>...</tool_call>` block; several blocks are several calls: refused. */
function toolCallBlockContent(text: string): string {
  if (!text.endsWith(TOOL_CALL_CLOSE)) throw new MalformedArgumentsError(messages.truncated());
  const inner = text.slice(TOOL_CALL_OPEN.length, text.length - TOOL_CALL_CLOSE.length);
  if (inner.includes(TOOL_CALL_OPEN) || inner.includes(TOOL_CALL_CLOSE)) {
    throw new MalformedArgumentsError(
      'The arguments hold several <tool_call> blocks, that is several calls; make one call per tool call, each with only its arguments object.',
    );
  }
  return inner;
}

/**
 * What the text around the one object under `safe` must not hold: another bracket or brace (a second value, a
 * fragment), a quote (a string value outside the object), or call syntax (`name(...)`, `<tag>`, `<|token|>`, `key=`,
 * a code fence, an escape). `\uff5c` is the full-width bar (｜) of `<｜tool▁call｜>` tokens, written as an escape so
 * core's bundle stays ASCII (decision 0027).
 */
const NOT_IN_PROSE = /[{}[\]()<>"`=|\uff5c\\]/;

/**
 * Under `safe`: exactly one object in prose (`Here is the call: {"q": "cats"}`), when it is the only JSON value in the
 * text, complete, and the text around it holds no other brackets, braces, quotes or call syntax ({@link NOT_IN_PROSE}).
 */
function onlyObjectInProse(text: string, scan: JsonTextScan): string | undefined {
  if (scan.spanCount !== 1 || scan.truncated || scan.unbalanced) return undefined;
  const [start, end] = scan.topLevelSpans[0]!;
  if (text.charCodeAt(start) !== 123 /* { */) return undefined;
  if (NOT_IN_PROSE.test(text.slice(0, start)) || NOT_IN_PROSE.test(text.slice(end))) return undefined;
  return text.slice(start, end);
}

/** Under `lenient`: the one fenced block, else the one object, in prose. Linear scans, no regular expressions. */
function findEmbeddedObject(text: string, spans: ReadonlyArray<readonly [number, number]>): string | undefined {
  const fences: number[] = [];
  for (let at = text.indexOf(FENCE); at !== -1 && fences.length <= 2; at = text.indexOf(FENCE, at + FENCE.length))
    fences.push(at);
  if (fences.length === 2) {
    const block = fencedContent(text.slice(fences[0], fences[1]! + FENCE.length));
    if (block !== undefined && block.trim() !== '') return block;
  }
  const objects = spans.filter(([start]) => text[start] === '{');
  if (objects.length !== 1) return undefined;
  const [start, end] = objects[0]!;
  return text.slice(start, end);
}

/**
 * A JSON or Python-literal array or object inside a string value, read by the same reader with the same walk as the
 * arguments: dangerous keys dropped (recorded), nesting counted from where the string sits, array sizes checked.
 */
export function readEmbeddedValue(
  text: string,
  limits: PipelineLimits,
  path: string,
  depth: number,
):
  | { readonly ok: true; readonly value: unknown; readonly records: readonly Transformation[] }
  | { readonly ok: false; readonly reason: string } {
  try {
    const document = readJsonLike(text.trim(), {
      maxDepth: limits.maxDepth,
      maxArrayItems: limits.maxArrayItems,
      basePath: path,
      depthOffset: depth,
    });
    if (document.textOutside || document.values.length !== 1)
      return { ok: false, reason: 'it holds text besides one JSON value' };
    return { ok: true, value: document.values[0]!.value, records: document.records };
  } catch (error) {
    if (error instanceof ToolCallError) return { ok: false, reason: error.message.replace(/\.$/, '') };
    throw error;
  }
}
