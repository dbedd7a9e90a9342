import 'reflect-metadata';
import fc from 'fast-check';
import {
  HandlerError,
  PersonaToolExecutor,
  ServiceUnavailableError,
  TimeoutError,
  ToolCallError,
  ToolRegistry,
  silentLogger,
  type ToolErrorPayload,
  type ToolHandler,
  type ToolResult,
} from '@toolwright/core';
import { runWithTimeout } from '@toolwright/core/internal';
import { messages } from '../../src/pipeline/messages';

/**
 * Issue 12's execution core (one promise per call, the deadline set a microtask after the handler started, no timer
 * for a handler that already settled) against `runWithTimeout`, the timeout and cancellation contract it implements
 * (an AbortController, a timer and Promise.race per call). Random handlers (a value or a throw, synchronous, after some
 * microtasks, after a timer, never; hostile thrown values; handlers that reject when their signal aborts) with random
 * timeouts and caller cancellations (none, before the call, after some microtasks, after a timer), under Jest's fake
 * clock: each call must end with the same value or the same error payload on both paths.
 */

const TOOL = 'work';

type Thrown = () => unknown;
const THROWN: readonly Thrown[] = [
  () => new Error('db password=hunter2'),
  () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
  () => new TypeError('fetch failed', { cause: Object.assign(new Error('x'), { code: 'UND_ERR_SOCKET' }) }),
  () => new TimeoutError('The handler timed out on its own.'),
  () => new HandlerError('The handler says: try later.'),
  () => new ServiceUnavailableError('The handler says: the service is down.'),
  () => 'a string',
  () => null,
  () => undefined,
  () => 42,
  () => ({ then: 'not a function', code: 'ENOTFOUND' }),
  () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  },
];

type Settle = { readonly kind: 'value'; readonly value: unknown } | { readonly kind: 'throw'; readonly error: number };
type When =
  | { readonly kind: 'sync' }
  | { readonly kind: 'ticks'; readonly ticks: number }
  | { readonly kind: 'timer'; readonly ms: number }
  | { readonly kind: 'never' };
type Cancel =
  | { readonly kind: 'none' }
  | { readonly kind: 'before' }
  | { readonly kind: 'ticks'; readonly ticks: number }
  | { readonly kind: 'timer'; readonly ms: number };

interface Scenario {
  readonly when: When;
  readonly settle: Settle;
  /** The handler rejects with its own error when its signal aborts (it reads `signal`). */
  readonly listens: boolean;
  readonly timeoutMs: number;
  readonly cancel: Cancel;
}

const value = fc.oneof(
  fc.constant(undefined),
  fc.integer(),
  fc.string({ maxLength: 5 }),
  fc.record({ slots: fc.nat(5), invited: fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }) }),
);
const settle: fc.Arbitrary<Settle> = fc.oneof(
  value.map((settled) => ({ kind: 'value' as const, value: settled })),
  fc.nat(THROWN.length - 1).map((error) => ({ kind: 'throw' as const, error })),
);
const when: fc.Arbitrary<When> = fc.oneof(
  fc.constant({ kind: 'sync' as const }),
  fc.nat(4).map((ticks) => ({ kind: 'ticks' as const, ticks })),
  fc.integer({ min: 0, max: 80 }).map((ms) => ({ kind: 'timer' as const, ms })),
  fc.constant({ kind: 'never' as const }),
);
const cancel: fc.Arbitrary<Cancel> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'none' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'before' as const }) },
  { weight: 1, arbitrary: fc.nat(4).map((ticks) => ({ kind: 'ticks' as const, ticks })) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 80 }).map((ms) => ({ kind: 'timer' as const, ms })) },
);
/**
 * Moments the two paths may order differently are left out: a timer due at the same instant as another, and a
 * cancellation a few microtasks after the call racing a handler that settles within a few microtasks (the contract
 * orders neither; `runWithTimeout` itself takes more microtasks than the executor).
 */
const scenario: fc.Arbitrary<Scenario> = fc
  .record({ when, settle, listens: fc.boolean(), timeoutMs: fc.integer({ min: 5, max: 60 }), cancel })
  .filter((candidate) => {
    if (candidate.cancel.kind === 'ticks' && (candidate.when.kind === 'sync' || candidate.when.kind === 'ticks'))
      return false;
    const moments = [candidate.timeoutMs];
    if (candidate.when.kind === 'timer') moments.push(candidate.when.ms);
    if (candidate.cancel.kind === 'timer') moments.push(candidate.cancel.ms);
    // The shared timer expires a deadline up to 1 ms early; 0 ms timers still run after the call started.
    return moments.every((moment, index) => moments.every((other, at) => at === index || Math.abs(moment - other) > 2));
  });

const ticks = async (count: number) => {
  for (let tick = 0; tick < count; tick++) await Promise.resolve();
};

/** The handler of a scenario; `signal` is read only when the handler listens (as the executor creates it lazily). */
function act(scenario: Scenario, signal: () => AbortSignal): unknown {
  const outcome = () => {
    if (scenario.settle.kind === 'value') return scenario.settle.value;
    throw THROWN[scenario.settle.error]!();
  };
  const { when: timing } = scenario;
  if (timing.kind === 'sync') return outcome();
  return new Promise((resolve, reject) => {
    if (scenario.listens) signal().addEventListener('abort', () => reject(new Error('aborted by its signal')));
    const run = () => {
      try {
        resolve(outcome());
      } catch (error) {
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- hostile values are the point
        reject(error);
      }
    };
    if (timing.kind === 'ticks') void ticks(timing.ticks).then(run);
    else if (timing.kind === 'timer') setTimeout(run, timing.ms);
  });
}

type Outcome =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: ToolErrorPayload };

function outcomeOf(result: ToolResult): Outcome {
  return result.ok ? { ok: true, value: result.value } : { ok: false, error: result.error };
}

/** The contract: runWithTimeout, and what the executor makes of an error that is not a ToolCallError. */
async function reference(scenario: Scenario, signal: AbortSignal | undefined): Promise<Outcome> {
  try {
    const settled = await runWithTimeout((own) => act(scenario, () => own), {
      tool: TOOL,
      timeoutMs: scenario.timeoutMs,
      signal,
    });
    return { ok: true, value: settled };
  } catch (error) {
    const failure =
      error instanceof ToolCallError ? error : new HandlerError(messages.handlerFailed(TOOL), { cause: error });
    return { ok: false, error: failure.toPayload() };
  }
}

async function compiled(scenario: Scenario, signal: AbortSignal | undefined): Promise<Outcome> {
  const registry = new ToolRegistry({ logger: silentLogger });
  const handler: ToolHandler = (_params, invocation) => act(scenario, () => invocation.signal);
  registry.registerJsonSchemaTool({ name: TOOL, parameters: { type: 'object', properties: {} } }, handler, {
    timeoutMs: scenario.timeoutMs,
  });
  const executor = new PersonaToolExecutor(registry, { logger: silentLogger, telemetry: false });
  return outcomeOf(await executor.execute({ id: 'c', name: TOOL, arguments: '{}' }, signal ? { signal } : {}));
}

/** Runs one path of a scenario to its end under the fake clock, cancelling the call as the scenario says. */
async function run(scenario: Scenario, path: typeof reference): Promise<Outcome> {
  const controller = scenario.cancel.kind === 'none' ? undefined : new AbortController();
  if (scenario.cancel.kind === 'before') controller!.abort();
  let outcome: Outcome | undefined;
  const pending = path(scenario, controller?.signal).then((settled) => {
    outcome = settled;
  });
  const { cancel: cancelling } = scenario;
  if (cancelling.kind === 'ticks') void ticks(cancelling.ticks).then(() => controller!.abort());
  if (cancelling.kind === 'timer') setTimeout(() => controller!.abort(), cancelling.ms);
  await jest.advanceTimersByTimeAsync(200);
  await pending;
  return outcome!;
}

describe('execution core: the executor against runWithTimeout', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    jest.clearAllTimers();
    jest.useRealTimers();
  });

  it('the same value or error payload for 2,000 random handlers, timeouts and cancellations', async () => {
    let compared = 0;
    const kinds = new Set<string>();
    await fc.assert(
      fc.asyncProperty(scenario, async (generated) => {
        const expected = await run(generated, reference);
        const actual = await run(generated, compiled);
        expect(actual).toEqual(expected);
        if (expected.ok) expect(actual.ok && actual.value).toBe(expected.value);
        kinds.add(expected.ok ? 'ok' : expected.error.code);
        compared++;
      }),
      { seed: 20261126, numRuns: 2_000 },
    );
    expect(compared).toBe(2_000);
    // Every outcome the contract has was reached.
    expect([...kinds].sort()).toEqual(['CANCELLED', 'HANDLER_ERROR', 'SERVICE_UNAVAILABLE', 'TIMEOUT', 'ok']);
  }, 60_000);
});
