import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { resolveRelativeDate } from '../../../src/builtins';

/**
 * chrono-node computes with the host's local `Date` arithmetic. These cases resolve the same phrases in child
 * processes whose host time zone (TZ) has DST changes on the very nights the phrases cross, and expect the results of
 * this process. The cases that land in the host's own DST gap ("in 1 hour" from 01:30 in Berlin) were an hour off
 * before durations were computed in `relative-durations.ts`.
 */
const CASES: ReadonlyArray<readonly [phrase: string, reference: string, timeZone: string]> = [
  ['in 1 hour', '2026-03-29T00:30:00Z', 'Europe/Berlin'],
  ['in 2 hours', '2026-03-28T23:30:00Z', 'Europe/Berlin'],
  ['1 hour ago', '2026-03-29T01:30:00Z', 'Europe/Berlin'],
  ['next hour', '2026-03-29T00:30:00Z', 'Europe/Berlin'],
  ['in 1 hour', '2026-03-08T06:30:00Z', 'America/New_York'],
  ['in 1 hour', '2026-11-01T05:30:00Z', 'America/New_York'],
  ['in 1 day and 2 hours', '2026-03-28T12:00:00Z', 'Europe/Berlin'],
  ['now', '2026-03-29T00:30:00Z', 'Europe/Berlin'],
  ['today', '2026-03-28T23:30:00Z', 'Europe/Berlin'],
  ['tomorrow', '2026-03-28T12:00:00Z', 'Europe/Berlin'],
  ['tomorrow at 9am', '2026-03-28T12:00:00Z', 'Europe/Berlin'],
  ['tomorrow at 9am', '2026-10-31T16:00:00Z', 'America/New_York'],
  ['at 2:30am', '2026-03-28T12:00:00Z', 'Europe/Berlin'],
  ['in 3 days', '2026-03-28T12:00:00Z', 'Europe/Berlin'],
  ['next Monday', '2026-03-28T12:00:00Z', 'Europe/Berlin'],
  ['this week', '2026-03-28T12:00:00Z', 'Europe/Berlin'],
  ['next week', '2026-10-31T16:00:00Z', 'America/New_York'],
  ['end of month', '2026-03-31T22:30:00Z', 'Europe/Berlin'],
  ['March 3', '2026-03-28T12:00:00Z', 'Europe/Berlin'],
];

const PACKAGE_ROOT = path.resolve(__dirname, '../../..');
const MODULE = path.join(PACKAGE_ROOT, 'src/builtins/relative-date.ts');

/** Runs the cases in a child process with `TZ` set; returns the host's UTC offsets in January and July, and the results. */
function resolveInHost(hostTimeZone: string): { offsets: [number, number]; results: unknown[] } {
  const script = `
    const { resolveRelativeDate } = require(${JSON.stringify(MODULE)});
    const results = JSON.parse(process.env.CASES).map(([phrase, reference, timeZone]) => {
      try { return resolveRelativeDate(phrase, { now: new Date(reference), timeZone }); }
      catch (error) { return { error: error.code }; }
    });
    const offsets = [new Date('2026-01-15T12:00:00Z').getTimezoneOffset(), new Date('2026-07-15T12:00:00Z').getTimezoneOffset()];
    process.stdout.write(JSON.stringify({ offsets, results }));`;
  const output = execFileSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], {
    cwd: PACKAGE_ROOT,
    env: { ...process.env, TZ: hostTimeZone, CASES: JSON.stringify(CASES) },
    encoding: 'utf8',
  });
  return JSON.parse(output) as { offsets: [number, number]; results: unknown[] };
}

describe('resolveRelativeDate does not depend on the host time zone', () => {
  const expected = CASES.map(([phrase, reference, timeZone]) =>
    resolveRelativeDate(phrase, { now: new Date(reference), timeZone }),
  );

  it.each([
    ['Europe/Berlin', [-60, -120]],
    ['America/New_York', [300, 240]],
    ['Australia/Lord_Howe', [-660, -630]],
  ])(
    'on a host in %s',
    (hostTimeZone, hostOffsets) => {
      const { offsets, results } = resolveInHost(hostTimeZone);
      expect(offsets).toEqual(hostOffsets);
      expect(results).toEqual(expected);
    },
    60_000,
  );
});
