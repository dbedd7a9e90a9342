import { jsonrepair } from 'jsonrepair';
import { InvalidArgumentsError } from '../errors/invalid-arguments-error';
import { MalformedArgumentsError } from '../errors/malformed-arguments-error';
import type { CoercionPolicy } from '../types/schema';
import type { Transformation } from '../types/execution';
import type { PipelineLimits } from './limits';
import { scanJsonText } from './scan-json-text';
import { describeReceived, messages } from './messages';
import { deepEqual } from './deep-equal';
import { pythonLiteralToJson } from './python-literal';

export interface ParsedArguments {
  readonly value: Record<string, unknown>;
  readonly transformations: Transformation[];
  /** The value was parsed from text here, so it is the pipeline's own (no caller holds a reference to it). */
  readonly owned: boolean;
}

const MAX_ENCODING_LEVELS = 3;

/** What one parse threads through its steps. */
interface ParseRun {
  readonly policy: CoercionPolicy;
  readonly limits: PipelineLimits;
  readonly transformations: Transformation[];
}
const FENCED_BLOCK = /^```[\w-]*[ \t]*\r?\n?([\s\S]*?)\r?\n?[ \t]*```$/;
const FENCED_BLOCK_IN_TEXT = /```[\w-]*[ \t]*\r?\n([\s\S]*?)\r?\n[ \t]*```/g;

/**
 * Pipeline step 3: read the arguments (text or an already-parsed object) as one JSON object.
 * Lossless repairs are recorded as transformations; anything that would need a guess is refused.
 * Under `strict`, only plain JSON (or an object, or nothing) is accepted.
 */
export function parseArguments(
  raw: unknown,
  policy: CoercionPolicy,
  limits: PipelineLimits,
): ParsedArguments {
  const transformations: Transformation[] = [];
  if (raw === undefined || raw === null) {
    transformations.push({ path: '', rule: 'empty-arguments', from: raw, to: {} });
    return { value: {}, transformations, owned: true };
  }
  if (typeof raw === 'object') {
    if (Array.isArray(raw)) throw new MalformedArgumentsError(messages.notAnObject(describeReceived(raw)));
    return { value: raw as Record<string, unknown>, transformations, owned: false };
  }
  if (typeof raw !== 'string') throw new MalformedArgumentsError(messages.notAnObject(describeReceived(raw)));
  checkSize(raw, limits);
  return { value: parseText(raw, { policy, limits, transformations }, 0), transformations, owned: true };
}

function checkSize(text: string, limits: PipelineLimits): void {
  // A string of n UTF-16 units holds between n and 3n UTF-8 bytes: only count when it matters.
  if (text.length > limits.maxArgumentsBytes || (text.length * 3 > limits.maxArgumentsBytes && Buffer.byteLength(text, 'utf8') > limits.maxArgumentsBytes)) {
    throw new InvalidArgumentsError(messages.argumentsTooLarge(limits.maxArgumentsBytes), {
      issues: [{ path: '', rule: 'max-size', expected: `at most ${limits.maxArgumentsBytes} bytes`, message: messages.argumentsTooLarge(limits.maxArgumentsBytes) }],
    });
  }
}

function parseText(text: string, run: ParseRun, level: number): Record<string, unknown> {
  const { policy, limits, transformations } = run;
  const trimmed = text.trim();
  if (trimmed === '') {
    transformations.push({ path: '', rule: 'empty-arguments', from: text, to: {} });
    return {};
  }
  // Valid JSON is the common case: V8's JSON.parse is iterative (any depth is safe) and the sanitize walk enforces
  // the depth limit on its result. Only text that is not JSON is scanned before anything tries to repair it.
  let parsed: unknown;
  let parsedOk = false;
  try {
    parsed = JSON.parse(trimmed);
    parsedOk = true;
  } catch {
    parsedOk = false;
  }
  if (parsedOk) return fromParsedValue(parsed, trimmed, run, level);
  const scan = scanJsonText(trimmed, limits.maxDepth);
  if (scan.maxDepth > limits.maxDepth) {
    const message = messages.tooDeep(limits.maxDepth);
    throw new InvalidArgumentsError(message, { issues: [{ path: '', rule: 'max-depth', expected: `at most ${limits.maxDepth} levels of nesting`, message }] });
  }
  if (policy === 'strict') throw new MalformedArgumentsError(messages.notJsonStrict(trimmed));

  const fenced = FENCED_BLOCK.exec(trimmed);
  if (fenced) {
    const inner = fenced[1] ?? '';
    transformations.push({ path: '', rule: 'fenced-block', from: trimmed, to: inner });
    return parseText(inner, run, level);
  }
  if (scan.truncated) throw new MalformedArgumentsError(messages.truncated());

  const spans = scan.topLevelSpans;
  if (spans.length >= 2 && !scan.hasTextOutsideSpans) return collapseRepeatedObjects(trimmed, spans, run, level);
  if (spans.length === 1 && !scan.hasTextOutsideSpans && !scan.unbalanced) return repair(trimmed, run, level);
  if (policy === 'lenient') {
    const embedded = findEmbeddedObject(trimmed, spans);
    if (embedded !== undefined) {
      transformations.push({ path: '', rule: 'object-in-prose', from: trimmed, to: embedded });
      return parseText(embedded, run, level);
    }
  }
  throw new MalformedArgumentsError(spans.length === 0 ? messages.notAnObject(describeReceived(trimmed)) : messages.objectInProse(describeReceived(trimmed)));
}

function fromParsedValue(parsed: unknown, text: string, run: ParseRun, level: number): Record<string, unknown> {
  const { policy, transformations } = run;
  if (parsed === null) {
    transformations.push({ path: '', rule: 'empty-arguments', from: text, to: {} });
    return {};
  }
  if (typeof parsed === 'string') {
    if (policy === 'strict' || level >= MAX_ENCODING_LEVELS) throw new MalformedArgumentsError(messages.notAnObject(describeReceived(parsed)));
    transformations.push({ path: '', rule: 'double-encoded-json', from: text, to: parsed });
    return parseText(parsed, run, level + 1);
  }
  if (typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  throw new MalformedArgumentsError(messages.notAnObject(describeReceived(parsed)));
}

function collapseRepeatedObjects(text: string, spans: ReadonlyArray<readonly [number, number]>, run: ParseRun, level: number): Record<string, unknown> {
  const { transformations } = run;
  const objects = spans.map(([start, end]) => parseText(text.slice(start, end), { ...run, transformations: [] }, level));
  const first = objects[0]!;
  const differentIndex = objects.findIndex((object) => !deepEqual(object, first));
  if (differentIndex !== -1) {
    const [aStart, aEnd] = spans[0]!;
    const [bStart, bEnd] = spans[differentIndex]!;
    throw new MalformedArgumentsError(messages.distinctObjects(text.slice(aStart, aEnd), text.slice(bStart, bEnd), spans.length));
  }
  transformations.push({ path: '', rule: 'repeated-object', from: text, to: first });
  return first;
}

function repair(text: string, run: ParseRun, level: number): Record<string, unknown> {
  const { transformations } = run;
  const repaired = repairJsonText(text);
  if (repaired === undefined) throw new MalformedArgumentsError(messages.unrepairable(describeReceived(text)));
  const parsed: unknown = JSON.parse(repaired.text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new MalformedArgumentsError(messages.notAnObject(describeReceived(text)));
  }
  for (const rule of detectRepairs(text)) transformations.push({ path: '', rule, from: text, to: repaired.text });
  return fromParsedValue(parsed, repaired.text, run, level);
}

/**
 * JSON text for object-like text that is not JSON: jsonrepair first, then the Python-literal reader for what
 * jsonrepair mis-reads. `undefined` when neither yields parseable JSON. Only called on text the scan found balanced.
 */
export function repairJsonText(text: string): { text: string } | undefined {
  for (const repairer of [jsonrepair, pythonLiteralToJson]) {
    try {
      const repaired = repairer(text);
      if (repaired === undefined) continue;
      JSON.parse(repaired);
      return { text: repaired };
    } catch {
      continue;
    }
  }
  return undefined;
}

/** Names what jsonrepair fixed, for the transformation log and the per-rule counts. */
function detectRepairs(text: string): string[] {
  const rules: string[] = [];
  if (/\b(True|False|None)\b/.test(text)) rules.push('python-literals');
  if (/'/.test(text)) rules.push('single-quotes');
  if (/,\s*[}\]]/.test(text)) rules.push('trailing-commas');
  if (/[{,]\s*[A-Za-z_$][\w$]*\s*:/.test(text)) rules.push('unquoted-keys');
  return rules.length > 0 ? rules : ['repaired-json'];
}

function findEmbeddedObject(text: string, spans: ReadonlyArray<readonly [number, number]>): string | undefined {
  const blocks = [...text.matchAll(FENCED_BLOCK_IN_TEXT)];
  if (blocks.length === 1) return blocks[0]![1];
  const objects = spans.filter(([start]) => text[start] === '{');
  if (objects.length !== 1) return undefined;
  const [start, end] = objects[0]!;
  return text.slice(start, end);
}
