import type { ToolCall } from '@toolwright/core';
import type { ProviderId, ToolRegistryLike } from '@toolwright/providers';
import { CliError } from '../errors/cli-error';
import { DETECTION_ORDER, PROVIDER_CALLS, toolSetFor } from './providers';

/** How a pasted call is read: one provider's shape, the first shape that fits (`auto`), or bare arguments text. */
export type CallShape = ProviderId | 'arguments' | 'auto';

export interface ReadCall {
  /** The shape it was read as. */
  readonly shape: ProviderId | 'arguments';
  readonly call: ToolCall;
  /** Calls found in the input (only the first is run). */
  readonly found: number;
}

/**
 * Reads a raw model call: a provider response or message in any provider's shape (parsed by that provider's own
 * `parseToolCalls`, with its name codec), or bare arguments text for `tool`. Auto-detection tries the shapes in turn
 * and falls back to bare arguments when none finds a call.
 */
export function readCall(
  input: string,
  options: { registry: ToolRegistryLike; shape?: CallShape; tool?: string; id?: string },
): ReadCall {
  const shape = options.shape ?? 'auto';
  const id = options.id ?? 'call_inspect_1';
  const asArguments = (): ReadCall => {
    if (!options.tool) {
      throw new CliError(
        shape === 'arguments'
          ? 'Bare arguments need a tool: pick the tool the arguments are for.'
          : "The input is not a tool call in any provider's shape. Fix: pick the tool to read it as bare arguments text for, or paste a whole call.",
        1,
      );
    }
    return { shape: 'arguments', call: { id, name: options.tool, arguments: input }, found: 1 };
  };
  if (shape === 'arguments') return asArguments();

  let parsed: unknown = input;
  const trimmed = input.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      parsed = input;
    }
  }
  const tryShape = (provider: ProviderId): ReadCall | undefined => {
    // Qwen/Hermes calls are text: the parser gets the input as pasted.
    const calls = PROVIDER_CALLS[provider]
      .parse(provider === 'hermes' ? input : parsed, toolSetFor(options.registry, provider))
      .filter((call) => call.name !== '');
    const [first] = calls;
    if (!first) return undefined;
    const call: ToolCall = {
      id: first.id,
      name: first.name,
      arguments: first.arguments,
      transformations: first.transformations,
    };
    return { shape: provider, call, found: calls.length };
  };
  if (shape !== 'auto') {
    const read = tryShape(shape);
    if (!read)
      throw new CliError(
        `No ${shape} tool call found in the input. Fix: paste a ${shape} response or message that holds a tool call, or choose another shape.`,
        1,
      );
    return read;
  }
  const order: ProviderId[] =
    typeof parsed === 'string' ? (/<tool_call>|<function=/.test(input) ? ['hermes'] : []) : [...DETECTION_ORDER];
  for (const provider of order) {
    const read = tryShape(provider);
    if (read) return read;
  }
  return asArguments();
}
