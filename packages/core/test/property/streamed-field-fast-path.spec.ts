import 'reflect-metadata';
import { PersonaToolExecutor, silentLogger, type CoercionPolicy, type StreamedField } from '@toolwright/core';
import { canonicalCheck, NOT_ACCEPTED } from '@toolwright/core/compile/canonical-check';
import { DEFAULT_LIMITS } from '@toolwright/core/pipeline/limits';
import { objectSchema, textFor, TOOL } from '../support/json-schema-texts';
import { registerSchemaTool } from '../support/fast-path-executors';
import { seededRandom } from '../support/seeded-random';
import { showValue } from '../support/show-value';

/**
 * A streamed call's field is checked with the tool's canonical check fused into its reading, as the whole call is
 * (`CanonicalCheck.acceptMember`): a member the check accepts skips sanitizing and normalizing. Differential: over
 * random JSON Schema tools and random values for their members (compact and spaced, with escapes, duplicate keys and
 * integers beyond 2^53 inside), each policy, an executor on the fast path and one without the canonical check
 * (`canonicalFastPath: false`) give the same field: status, path, value, transformations or refusal.
 */

const SEED = 0x44_0c;
const SCHEMAS = 400;
const TEXTS_PER_SCHEMA = 12;
const POLICIES: readonly CoercionPolicy[] = ['strict', 'safe', 'lenient'];

function fieldText(field: StreamedField): string {
  return showValue(field);
}

/**
 * Member texts for the keys of a random arguments text: each value compact and spaced, and (as a model may write them)
 * with an integer written with a trailing `.0`, a string's characters escaped, or a duplicate key inside an object.
 */
function memberTexts(text: string, pick: number): Array<[string, string]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return [];
  const members: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    const compact = JSON.stringify(value);
    members.push([key, pick % 2 === 0 ? compact : JSON.stringify(value, null, 2)]);
    if (typeof value === 'number' && Number.isInteger(value)) members.push([key, `${compact}.0`]);
    if (typeof value === 'string' && value.length > 0)
      members.push([key, `"${[...value].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`]);
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && compact.length > 2)
      members.push([key, `{${compact.slice(1, -1)},${compact.slice(1, -1)}}`]);
  }
  return members;
}

describe('a streamed field read with the canonical check fused', () => {
  it('is the field the normalizer gives, for random tools and values', async () => {
    const random = seededRandom(SEED);
    let fields = 0;
    let direct = 0;
    const mismatches: string[] = [];
    for (let index = 0; index < SCHEMAS; index++) {
      const schema = objectSchema(random, 1);
      const registries = [registerSchemaTool(schema), registerSchemaTool(schema)];
      if (registries[0] === undefined || registries[1] === undefined) continue;
      const policy = random.pick(POLICIES);
      const fast = new PersonaToolExecutor(registries[0], { logger: silentLogger, coercion: policy });
      const without = new PersonaToolExecutor(registries[1], {
        logger: silentLogger,
        coercion: policy,
        canonicalFastPath: false,
      });
      const check = canonicalCheck(registries[0].get(TOOL)!.parameters, DEFAULT_LIMITS);
      for (let text = 0; text < TEXTS_PER_SCHEMA; text++) {
        for (const [key, member] of memberTexts(textFor(random, schema), text)) {
          const fastCall = fast.streamedCall(TOOL);
          const withoutCall = without.streamedCall(TOOL);
          if (!fastCall.ok || !withoutCall.ok) throw new Error('the tool did not resolve');
          const actual = fieldText(await fastCall.fieldText(key, member));
          const expected = fieldText(await withoutCall.fieldText(key, member));
          fields++;
          try {
            if (check.acceptMember(key, JSON.parse(member)) !== NOT_ACCEPTED) direct++;
          } catch {
            // Not JSON.parse's: refused by the reading either way.
          }
          if (actual !== expected && mismatches.length < 5)
            mismatches.push(`${JSON.stringify(schema)} ${key}: ${member}\n  ${actual}\n  ${expected}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
    // Both paths were taken many times.
    expect(fields).toBeGreaterThan(2_000);
    expect(direct).toBeGreaterThan(fields / 4);
    expect(direct).toBeLessThan(fields);
  });
});
