import 'reflect-metadata';
import { registerRelativeDateTool, RESOLVE_RELATIVE_DATE_TOOL_NAME } from '../../../src/builtins';
import { PersonaToolExecutor } from '../../../src/execution';
import { silentLogger } from '../../../src/logging/logger';
import { ToolRegistry } from '../../../src/registry';
import type { ExecutionContext, ToolResult } from '../../../src/types';

function setup(): { registry: ToolRegistry; executor: PersonaToolExecutor } {
  const registry = new ToolRegistry({ logger: silentLogger });
  registerRelativeDateTool(registry);
  return { registry, executor: new PersonaToolExecutor(registry, { logger: silentLogger }) };
}

async function call(args: Record<string, unknown>, context: ExecutionContext = {}): Promise<ToolResult> {
  return setup().executor.execute(
    { id: 'call-1', name: RESOLVE_RELATIVE_DATE_TOOL_NAME, arguments: JSON.stringify(args) },
    context,
  );
}

const berlinSaturday: ExecutionContext = { timeZone: 'Europe/Berlin', now: new Date('2026-03-28T12:00:00Z') };

describe('resolve_relative_date command', () => {
  it('is registered only on request, with the phrase required and the zone, reference and granularity optional', () => {
    expect(new ToolRegistry({ logger: silentLogger }).has(RESOLVE_RELATIVE_DATE_TOOL_NAME)).toBe(false);
    const { registry } = setup();
    const schema = registry.toJsonSchema(RESOLVE_RELATIVE_DATE_TOOL_NAME);
    expect(schema.required).toEqual(['phrase']);
    expect(Object.keys(schema.properties ?? {})).toEqual(['phrase', 'time_zone', 'reference', 'granularity']);
    expect(schema.properties?.['reference']).toMatchObject({ type: 'string', format: 'date-time' });
    expect(schema.properties?.['granularity']).toMatchObject({ enum: ['auto', 'date', 'datetime'] });
    expect(registry.get(RESOLVE_RELATIVE_DATE_TOOL_NAME)?.description).toMatch(/start is inclusive, end exclusive/);
  });

  it('reads the time zone and reference instant from the execution context', async () => {
    const result = await call({ phrase: 'tomorrow at 9am' }, berlinSaturday);
    expect(result).toMatchObject({
      ok: true,
      value: {
        phrase: 'tomorrow at 9am',
        kind: 'datetime',
        datetime: '2026-03-29T09:00:00+02:00',
        date: '2026-03-29',
        timeZone: 'Europe/Berlin',
        reference: '2026-03-28T13:00:00+01:00',
      },
    });
  });

  it('prefers the time zone and reference given in the arguments', async () => {
    const result = await call(
      {
        phrase: 'tomorrow at 9am',
        time_zone: 'America/New_York',
        reference: '2026-10-31T12:00:00-04:00',
        granularity: 'auto',
      },
      berlinSaturday,
    );
    expect(result).toMatchObject({
      ok: true,
      value: { datetime: '2026-11-01T09:00:00-05:00', reference: '2026-10-31T12:00:00-04:00' },
    });
  });

  it('passes the granularity through', async () => {
    const result = await call({ phrase: 'tomorrow', granularity: 'datetime' }, berlinSaturday);
    expect(result).toMatchObject({ ok: true, value: { kind: 'datetime', datetime: '2026-03-29T00:00:00+01:00' } });
  });

  it('defaults to UTC and the current time', async () => {
    const before = Date.now();
    const result = await call({ phrase: 'today' });
    const after = Date.now();
    if (!result.ok) throw new Error(result.error.message);
    const value = result.value as { timeZone: string; reference: string };
    expect(value.timeZone).toBe('UTC');
    expect(value.reference).toMatch(/\+00:00$/);
    const reference = Date.parse(value.reference);
    expect(reference).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(reference).toBeLessThanOrEqual(after);
  });

  it('sends an unknown phrase back to the model as a retryable INVALID_ARGUMENTS on "phrase"', async () => {
    const result = await call({ phrase: 'whenever' }, berlinSaturday);
    if (result.ok) throw new Error('expected an error');
    expect(result.error).toMatchObject({ code: 'INVALID_ARGUMENTS', retryable: true });
    expect(result.error.issues).toEqual([
      {
        path: 'phrase',
        rule: 'relative-date',
        expected: 'an English date or time phrase',
        received: '"whenever"',
        example: '"tomorrow at 9am"',
        message: expect.stringContaining('No date or time was understood in "whenever"'),
      },
    ]);
    expect(result.error.message).toMatch(/Accepted phrases look like: "today", "tomorrow at 9am"/);
  });

  it('blames "time_zone" for an unknown zone the model sent', async () => {
    const result = await call({ phrase: 'tomorrow', time_zone: 'Europe/Atlantis' }, berlinSaturday);
    if (result.ok) throw new Error('expected an error');
    expect(result.error.code).toBe('INVALID_ARGUMENTS');
    expect(result.error.issues[0]).toMatchObject({
      path: 'time_zone',
      rule: 'time-zone',
      received: '"Europe/Atlantis"',
    });
    expect(result.error.message).toContain('Unknown time zone "Europe/Atlantis"');
  });

  it("reports a bad zone in the trusted context as a server error, not the model's", async () => {
    const result = await call({ phrase: 'tomorrow' }, { timeZone: 'Europe/Atlantis' });
    if (result.ok) throw new Error('expected an error');
    expect(result.error.code).toBe('HANDLER_ERROR');
    expect(result.error.retryable).toBe(false);
  });
});
