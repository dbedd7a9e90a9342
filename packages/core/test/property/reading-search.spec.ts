import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PersonaToolExecutor, silentLogger, ToolRegistry, type ToolResult } from '@toolwright/core';
import { DAMAGE_CLASSES, DAMAGE_TOOLS, damagedCall, type DamageClass } from '../support/damaged-calls';
import {
  canonicalJson,
  labelDamagedCall,
  labelLine,
  parseLabelLine,
  type OracleLabel,
} from '../support/reading-oracle';
import { seededRandom } from '../support/seeded-random';

/**
 * The reading search against the brute-force oracle: valid calls damaged by syntax-only edits (one case per seed,
 * `damaged-calls.ts`), labelled offline by the oracle (`reading-oracle.ts`, every edit up to two away, `JSON.parse`
 * and ajv as the acceptor) into `fixtures/damaged-call-labels.txt` (`node scripts/label-damaged-calls.mjs`). Every
 * case runs through the executor: a case with one reading is recovered with exactly its value, or refused (at most 5 %
 * of a class); a case with several readings, none, or a cut-off text is refused; no case yields another value. A seeded
 * sample is labelled again live, so the fixture is proven current.
 */

const LABELS = readFileSync(join(__dirname, '../fixtures/damaged-call-labels.txt'), 'utf8').trimEnd().split('\n');
const LIVE_SAMPLE = 300;

function executor(): PersonaToolExecutor {
  const registry = new ToolRegistry({ logger: silentLogger });
  for (const [name, parameters] of Object.entries(DAMAGE_TOOLS))
    registry.registerJsonSchemaTool({ name, parameters }, (params) => params);
  return new PersonaToolExecutor(registry, { logger: silentLogger });
}

interface ClassCount {
  single: number;
  recovered: number;
  several: number;
  severalRefused: number;
  none: number;
  cutOff: number;
  wrong: string[];
}

function expectedValue(label: OracleLabel, original: Record<string, unknown>): string | undefined {
  if (label.kind !== 'one') return undefined;
  return label.value ?? canonicalJson(original);
}

describe('the reading search against the brute-force oracle', () => {
  it('labels a seeded sample live exactly as the fixture does (the labels are current)', () => {
    const random = seededRandom(46);
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      for (let index = 0; index < LIVE_SAMPLE; index++) {
        const seed = random.below(LABELS.length);
        expect([seed, labelLine(labelDamagedCall(damagedCall(seed)))]).toEqual([seed, LABELS[seed]]);
      }
    } finally {
      Error.stackTraceLimit = limit;
    }
  });

  it('recovers at least 95 % of the one-reading cases of every class, refuses the rest, and never yields another value', async () => {
    expect(LABELS.length).toBeGreaterThanOrEqual(100_000);
    const tools = executor();
    const counts = new Map<DamageClass, ClassCount>(
      DAMAGE_CLASSES.map((kind) => [
        kind,
        { single: 0, recovered: 0, several: 0, severalRefused: 0, none: 0, cutOff: 0, wrong: [] },
      ]),
    );
    for (let seed = 0; seed < LABELS.length; seed++) {
      const call = damagedCall(seed);
      const label = parseLabelLine(LABELS[seed]!);
      const count = counts.get(call.damage)!;
      const result: ToolResult = await tools.execute({ id: `c${seed}`, name: call.tool, arguments: call.text });
      const value = result.ok ? canonicalJson(result.value) : undefined;
      const expected = expectedValue(label, call.original);
      if (label.kind === 'one') {
        count.single++;
        if (value === expected) count.recovered++;
      } else if (label.kind === 'several') {
        count.several++;
        if (!result.ok) count.severalRefused++;
      } else if (label.kind === 'none') count.none++;
      else count.cutOff++;
      if (value !== undefined && value !== expected && count.wrong.length < 5)
        count.wrong.push(`${seed} ${label.kind} ${JSON.stringify(call.text)} -> ${value}`);
    }
    const lines = [...counts].map(
      ([kind, count]) =>
        `${kind.padEnd(24)} one reading ${count.recovered}/${count.single} (${((100 * count.recovered) / Math.max(1, count.single)).toFixed(2)} %), several refused ${count.severalRefused}/${count.several}, none ${count.none}, cut off ${count.cutOff}, other values ${count.wrong.length}`,
    );
    console.log(`reading search over ${LABELS.length} damaged calls:\n  ${lines.join('\n  ')}`);
    for (const [kind, count] of counts) {
      expect([kind, count.wrong]).toEqual([kind, []]);
      expect([kind, count.severalRefused]).toEqual([kind, count.several]);
      expect([kind, count.single > 0 && count.recovered / count.single >= 0.95]).toEqual([kind, true]);
    }
  });
});
