import 'reflect-metadata';
import { Validate, ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';
import { Command, PersonaToolExecutor, ToolParam, ToolRegistry, silentLogger, type ToolResult } from '@toolwright/core';
import { QUICK_PREPARATION_CHARACTERS } from '@toolwright/core/execution/run-handler';
import { RecordingLogger } from '../support/recording-logger';

/**
 * Decision 0021: two clock reads per call (its start, its end). The handler's start, which its timeout and the
 * slow-call warning count from, is the call's start when steps 1-6 ran synchronously on short text, and a third read
 * when they awaited something (an asynchronous rule) or read long text (they may have taken milliseconds).
 * Fake clock throughout (jest's, which also fakes `performance.now`); nothing here depends on real time.
 */

/** How much fake time a rule lets pass while steps 1-6 run: awaited (`later`), or synchronously (`during`). */
const rulePause = { later: 0, during: 0 };

@ValidatorConstraint({ name: 'settlesLater', async: true })
class SettlesLater implements ValidatorConstraintInterface {
  validate(): Promise<boolean> {
    return new Promise((resolve) => setTimeout(() => resolve(true), rulePause.later));
  }
  defaultMessage(): string {
    return '$property is refused';
  }
}

@ValidatorConstraint({ name: 'takesTime' })
class TakesTime implements ValidatorConstraintInterface {
  validate(): boolean {
    // A synchronous rule that takes `during` ms: the fake clock moves (and fires nothing: no timer is due yet).
    if (rulePause.during > 0) jest.advanceTimersByTime(rulePause.during);
    return true;
  }
  defaultMessage(): string {
    return '$property is refused';
  }
}

class AwaitedParams {
  @ToolParam({ type: 'int' }) @Validate(SettlesLater) n!: number;
}

class SynchronousParams {
  @ToolParam({ type: 'int' }) @Validate(TakesTime) n!: number;
  @ToolParam({ description: 'Free text', required: false }) note?: string;
}

const never = () => new Promise<never>(() => {});
let handler: () => unknown = never;

@Command({ name: 'awaited', description: 'Preparation awaits a rule', params: AwaitedParams, timeoutMs: 5_000 })
class AwaitedCommand {
  execute() {
    return handler();
  }
}

@Command({
  name: 'synchronous',
  description: 'Preparation is synchronous',
  params: SynchronousParams,
  timeoutMs: 5_000,
})
class SynchronousCommand {
  execute() {
    return handler();
  }
}

function executorWith(logger = new RecordingLogger()) {
  const registry = ToolRegistry.from([AwaitedCommand, SynchronousCommand], { logger: silentLogger });
  return { executor: new PersonaToolExecutor(registry, { logger, telemetry: false }), logger };
}

/** Whether `pending` has settled, after letting every queued microtask run. */
async function settled(pending: Promise<unknown>): Promise<boolean> {
  let done = false;
  void pending.then(() => {
    done = true;
  });
  await jest.advanceTimersByTimeAsync(0);
  return done;
}

/**
 * Deadlines of one timeout length share one timer, armed for the oldest live one: an earlier call with the same timeout
 * (the pacer, handler start 0) holds it, so a later deadline fires at its own time (`at`) once the pacer's has fired.
 */
async function startPacer(executor: PersonaToolExecutor): Promise<{ readonly pacer: Promise<ToolResult> }> {
  const pacer = executor.execute({ id: 'pacer', name: 'synchronous', arguments: '{"n":0}' });
  await jest.advanceTimersByTimeAsync(0);
  return { pacer };
}

/** The outcome of a call that must have settled by now (a failed expectation, not a hang, when it has not). */
async function outcome(pending: Promise<ToolResult>): Promise<ToolResult> {
  expect(await settled(pending)).toBe(true);
  return pending;
}

const LONG_NOTE = 'x'.repeat(QUICK_PREPARATION_CHARACTERS);

describe('two clock reads per call; the handler keeps its whole timeout (decision 0021)', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    rulePause.later = 0;
    rulePause.during = 0;
    handler = never;
  });
  afterEach(() => {
    jest.clearAllTimers();
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('preparation awaited a rule for 2 s: the 5 s timeout counts from the handler start (TIMEOUT at 7 s, not 5 s)', async () => {
    const { executor } = executorWith();
    const { pacer } = await startPacer(executor);
    rulePause.later = 2_000;
    const pending = executor.execute({ id: 'a', name: 'awaited', arguments: '{"n":1}' });
    await jest.advanceTimersByTimeAsync(5_000);
    expect(await outcome(pacer)).toMatchObject({ ok: false, error: { code: 'TIMEOUT' }, durationMs: 5_000 });
    await jest.advanceTimersByTimeAsync(1_999);
    expect(await settled(pending)).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    const result = await outcome(pending);
    expect(result).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    expect(result.durationMs).toBe(7_000);
  });

  it('the slow-call warning counts the handler, not an awaited preparation (1.5 s rule, instant handler: no warning)', async () => {
    rulePause.later = 1_500;
    handler = () => 'done';
    const { executor, logger } = executorWith();
    const pending = executor.execute({ id: 'b', name: 'awaited', arguments: '{"n":1}' });
    await jest.advanceTimersByTimeAsync(1_500);
    const result = await outcome(pending);
    expect(result).toMatchObject({ ok: true, value: 'done', durationMs: 1_500 });
    expect(logger.messages('warn')).toEqual([]);
  });

  it('a handler slower than its threshold is still warned about after an awaited preparation', async () => {
    rulePause.later = 500;
    handler = () => new Promise((resolve) => setTimeout(() => resolve('late'), 1_200));
    const { executor, logger } = executorWith();
    const pending = executor.execute({ id: 'c', name: 'awaited', arguments: '{"n":1}' });
    await jest.advanceTimersByTimeAsync(1_700);
    expect(await outcome(pending)).toMatchObject({ ok: true, value: 'late', durationMs: 1_700 });
    expect(logger.messages('warn')).toEqual(['slow tool call: awaited took 1200 ms (threshold 1000 ms)']);
  });

  it('long text (over the quick bound): steps 1-6 that took 2 s synchronously do not count against the handler', async () => {
    const { executor } = executorWith();
    const { pacer } = await startPacer(executor);
    rulePause.during = 2_000;
    const args = JSON.stringify({ n: 1, note: LONG_NOTE });
    expect(args.length).toBeGreaterThan(QUICK_PREPARATION_CHARACTERS);
    const pending = executor.execute({ id: 'd', name: 'synchronous', arguments: args });
    await jest.advanceTimersByTimeAsync(3_000);
    expect(await outcome(pacer)).toMatchObject({ ok: false, error: { code: 'TIMEOUT' }, durationMs: 5_000 });
    await jest.advanceTimersByTimeAsync(1_999);
    expect(await settled(pending)).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await outcome(pending)).toMatchObject({ ok: false, error: { code: 'TIMEOUT' }, durationMs: 7_000 });
  });

  it('short text: the call start serves as the handler start (what the decision accepts: TIMEOUT 5 s after the call)', async () => {
    const { executor } = executorWith();
    const { pacer } = await startPacer(executor);
    rulePause.during = 2_000;
    const pending = executor.execute({ id: 'e', name: 'synchronous', arguments: '{"n":1}' });
    await jest.advanceTimersByTimeAsync(2_999);
    expect(await settled(pending)).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await outcome(pacer)).toMatchObject({ ok: false, error: { code: 'TIMEOUT' }, durationMs: 5_000 });
    expect(await outcome(pending)).toMatchObject({ ok: false, error: { code: 'TIMEOUT' }, durationMs: 5_000 });
  });

  describe('clock reads per call', () => {
    async function reads(name: string, args: string, returns: () => unknown): Promise<number> {
      handler = returns;
      const { executor } = executorWith();
      const warm = executor.execute({ id: 'warm', name, arguments: args });
      await jest.advanceTimersByTimeAsync(0);
      await warm;
      const clock = jest.spyOn(performance, 'now');
      const pending = executor.execute({ id: 'counted', name, arguments: args });
      await jest.advanceTimersByTimeAsync(0);
      const result = await pending;
      expect(result).toMatchObject({ ok: true });
      const count = clock.mock.calls.length;
      clock.mockRestore();
      return count;
    }

    it('two for a valid call on short text, with a synchronous or an already-settled asynchronous handler', async () => {
      expect(await reads('synchronous', '{"n":1}', () => 'value')).toBe(2);
      expect(await reads('synchronous', '{"n":1}', () => Promise.resolve('value'))).toBe(2);
      const atTheBound = JSON.stringify({ n: 1, note: 'x'.repeat(QUICK_PREPARATION_CHARACTERS - 17) });
      expect(atTheBound.length).toBe(QUICK_PREPARATION_CHARACTERS);
      expect(await reads('synchronous', atTheBound, () => 'value')).toBe(2);
    });

    it('three when steps 1-6 awaited something or read text over the bound', async () => {
      expect(await reads('awaited', '{"n":1}', () => 'value')).toBe(3);
      expect(await reads('synchronous', JSON.stringify({ n: 1, note: LONG_NOTE }), () => 'value')).toBe(3);
    });
  });
});
