import 'reflect-metadata';
import { configureHotTier, DEFAULT_HOT_TIER } from '@toolwright/core/compile/hot-tier';
import { compareWithoutFastPath } from '../support/fast-path-executors';
import { textFor } from '../support/json-schema-texts';
import { seededRandom } from '../support/seeded-random';

/**
 * Issue 26's differential test: each tool's compiled plan (compiled ahead, `compile: 'registration'`: the canonical
 * check, the DTO instantiator), against the reference interpreter (the normalizer, with no
 * generated code: `canonicalFastPath: false`), over random JSON Schema tools under every policy and 20,000+ seeded
 * calls: valid and canonical texts, repairable ones, invalid ones and texts damaged by one edit. Results and log records
 * must be the same, byte for byte.
 */
const SEED = 26_2026;
const TOOLS = 1_400;
const CALLS_PER_TOOL = 21;
const EDITS = ['"', ',', '1', 'x', ' ', '}', '\\', 'null'];

jest.setTimeout(600_000);

async function compare(): Promise<void> {
  const { mismatches, calls } = await compareWithoutFastPath(seededRandom(SEED), {
    tools: TOOLS,
    callsPerTool: CALLS_PER_TOOL,
    policies: ['strict', 'safe', 'lenient'],
    compile: 'registration',
    text: (random, schema) => {
      const text = textFor(random, schema);
      if (!random.chance(0.25)) return text;
      // One edit somewhere in the text: a character deleted, replaced or inserted (a quote, a comma, a digit, a
      // letter, a space, a brace, a backslash, `null`).
      const at = random.below(text.length);
      const edit = random.pick(EDITS);
      switch (random.below(3)) {
        case 0:
          return text.slice(0, at) + text.slice(at + 1);
        case 1:
          return text.slice(0, at) + edit + text.slice(at + 1);
        default:
          return text.slice(0, at) + edit + text.slice(at);
      }
    },
  });
  expect(mismatches).toEqual([]);
  expect(calls).toBeGreaterThanOrEqual(20_000);
}

describe('the compiled plan against the reference interpreter (issue 26)', () => {
  afterEach(() => {
    configureHotTier(DEFAULT_HOT_TIER);
  });

  it('gives the same results and log records on 20,000+ seeded calls', compare);

  it('gives the same with every tool on the hot tier (its own generated check, decision 0031)', async () => {
    configureHotTier({ mode: 'always' });
    await compare();
  });
});
