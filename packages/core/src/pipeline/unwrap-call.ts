import { MalformedArgumentsError } from '../errors/malformed-arguments-error';
import type { ToolDefinition } from '../types/definition';
import type { CoercionPolicy } from '../types/schema';
import { sensitivePaths } from './redaction';
import { canonicalKey } from './keys';

/** The tool a call was resolved to, as the parse step needs it to recognise a whole call wrapped around the arguments. */
export interface CallTarget {
  /** The tool's registered name. */
  readonly tool: string;
  /** Whether the tool declares a parameter the model could mean by this key (name, alias, any spelling). */
  declares(key: string): boolean;
  /** Whether a tool name the model wrote names this tool (its name, an alias, a provider-encoded name). */
  names(name: string): boolean;
  /** Whether the value at an arguments path is (inside) a parameter marked `sensitive`: never echoed in messages. */
  sensitive?(path: string): boolean;
  /**
   * The value as the tool reads it (after its normal normalization) when it accepts it as its whole arguments, every
   * key read and nothing dropped; else undefined. The acceptor of the reading search and of envelopes: two readings
   * are the same when these are equal. Absent: only objects are told apart.
   */
  accepts?(value: Record<string, unknown>): Record<string, unknown> | undefined;
}

/**
 * The target for a resolved tool definition. `resolvesHere` says whether a name resolves to this tool (the executor
 * passes its own name resolution, so aliases, prefixes like `functions.` and provider encodings all count).
 */
export function callTargetFor(
  definition: ToolDefinition,
  resolvesHere: (name: string) => boolean,
  accepts?: (value: Record<string, unknown>) => Record<string, unknown> | undefined,
): CallTarget {
  const declared = new Set<string>();
  for (const property of definition.parameters.properties) {
    for (const name of [property.name, ...property.aliases]) declared.add(canonicalKey(name));
  }
  const sensitive = [...sensitivePaths(definition.parameters)].map((path) => canonicalKey(path.replace(/\[\]/g, '')));
  return {
    tool: definition.name,
    declares: (key) => declared.has(canonicalKey(key)),
    names: (name) => resolvesHere(name),
    ...(accepts ? { accepts } : {}),
    // Spelling-insensitive and prefix-wide on purpose: hiding a value too many is harmless, echoing a secret is not.
    sensitive: (path) => {
      const wanted = canonicalKey(path.replace(/\[\d+\]/g, ''));
      return sensitive.some((candidate) => wanted.startsWith(candidate));
    },
  };
}

/** Keys a call envelope may have: OpenAI's tool call (`id`, `type`, `function`), and `{name, arguments|parameters}`. */
const ENVELOPE_KEYS: ReadonlySet<string> = new Set([
  'name',
  'arguments',
  'parameters',
  'function',
  'type',
  'id',
  'call_id',
  'index',
]);
const ARGUMENT_KEYS = ['arguments', 'parameters'] as const;

interface Envelope {
  readonly name: string;
  readonly arguments: unknown;
  /** The envelope's keys at the top of the arguments. */
  readonly keys: readonly string[];
  /** The key holding the arguments (or `function`). */
  readonly argumentsKey: string;
}

/** Whether a value is a JSON object (not an array, not null): what the arguments must be. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function argumentsOf(holder: Record<string, unknown>): { key: string; value: unknown } | undefined {
  const present = ARGUMENT_KEYS.filter((key) => Object.prototype.hasOwnProperty.call(holder, key));
  if (present.length !== 1) return undefined;
  return { key: present[0]!, value: holder[present[0]!] };
}

// eslint-disable-next-line @typescript-eslint/unbound-method -- always called as hasOwnProperty.call(object, key)
const hasOwnProperty = Object.prototype.hasOwnProperty;

/** Whether the value has an own key and only envelope keys (checked without allocating: most arguments are not). */
export function hasOnlyEnvelopeKeys(value: Record<string, unknown>): boolean {
  let any = false;
  for (const key in value) {
    if (!hasOwnProperty.call(value, key)) continue;
    if (!ENVELOPE_KEYS.has(key)) return false;
    any = true;
  }
  return any;
}

function envelopeOf(value: Record<string, unknown>): Envelope | undefined {
  if (!hasOnlyEnvelopeKeys(value)) return undefined;
  const keys = Object.keys(value);
  const fn = value['function'];
  if (isObject(fn)) {
    const fnKeys = Object.keys(fn);
    const inner = argumentsOf(fn);
    if (
      typeof fn['name'] === 'string' &&
      inner &&
      fnKeys.every((key) => key === 'name' || ARGUMENT_KEYS.includes(key as never))
    ) {
      if (value['name'] !== undefined || argumentsOf(value) !== undefined) return undefined;
      return { name: fn['name'], arguments: inner.value, keys, argumentsKey: 'function' };
    }
    return undefined;
  }
  const args = argumentsOf(value);
  if (typeof value['name'] === 'string' && args)
    return { name: value['name'], arguments: args.value, keys, argumentsKey: args.key };
  return undefined;
}

/**
 * A call wrapped in its own envelope: `{"name": "<tool>", "arguments": {...}}` (or `parameters`, or a whole OpenAI tool call whose
 * `function.arguments` is text) where the arguments belong. Returns the inner arguments when the envelope names this
 * tool and the tool declares none of the envelope's keys; `undefined` when the value is not an envelope (or is one of
 * the tool's own parameters); throws when it names another tool, or when unwrapping would need a guess.
 */
export function unwrapCall(
  value: Record<string, unknown>,
  target: CallTarget,
  policy: CoercionPolicy,
): { readonly arguments: unknown } | undefined {
  const envelope = envelopeOf(value);
  if (envelope === undefined) return undefined;
  // The tool takes a parameter under the arguments key: these are its own arguments.
  if (target.declares(envelope.argumentsKey)) return undefined;
  // From here on the arguments key is not a parameter: left in place it would be dropped, and the handler would run
  // without the arguments the model sent. So the envelope is unwrapped, or the call refused; never passed on.
  const declared = envelope.keys.filter((key) => target.declares(key));
  const namesThis = target.names(envelope.name);
  if (!namesThis && declared.length === 0) {
    throw new MalformedArgumentsError(
      `The arguments hold a whole call of "${clip(envelope.name)}" ({"name": ..., "${envelope.argumentsKey}": ...}), not the arguments of "${target.tool}"; call "${clip(envelope.name)}" directly, or send only the arguments object of "${target.tool}".`,
    );
  }
  if (declared.length > 0) {
    throw new MalformedArgumentsError(
      `The arguments look like a whole tool call ({"name": ..., "${envelope.argumentsKey}": ...}), but "${target.tool}" has no parameter "${envelope.argumentsKey}" and does have ${declared.map((key) => `"${key}"`).join(', ')}; send only the arguments object of "${target.tool}", with every parameter at the top level.`,
    );
  }
  if (policy === 'strict') {
    throw new MalformedArgumentsError(
      `The arguments are a whole call of "${target.tool}" ({"name": ..., "${envelope.argumentsKey}": ...}); send only the arguments object.`,
    );
  }
  return { arguments: envelope.arguments };
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
