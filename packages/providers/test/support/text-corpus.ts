/**
 * The BFCL ground truth as text tool-call cases: each entry's functions as JSON-Schema tools and its expected calls
 * (the possible_answer files' first acceptable value per argument; `""` there means "omitted"), 1-3 calls per case,
 * with seeded variations: string values given quotes, a newline, unicode and backslashes; prose before the calls;
 * reasoning sections (in every supported syntax) holding a decoy call.
 */
import {
  BFCL_GROUND_TRUTH_FILES,
  bfclToJsonSchema,
  loadBfclEntries,
  loadBfclGroundTruth,
} from '../../../core/test/support/bfcl';
import type { JsonSchemaTool } from '@toolwright/providers/text';
import type { RenderCall } from './text-dialects';

export interface TextCase {
  readonly id: string;
  readonly tools: readonly JsonSchemaTool[];
  readonly calls: readonly RenderCall[];
}

/** Appended to one string value in every other case. */
export const SPICE = ' and "quoted", it\'s\non a new line: naïve café ☃ 🎉 C:\\Users\\ana \\n';

function firstValues(expected: Readonly<Record<string, readonly unknown[]>>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [key, acceptable] of Object.entries(expected)) {
    const first = acceptable[0];
    if (first === '' || first === undefined) continue;
    values[key] = first;
  }
  return values;
}

/** Every ground-truth entry as cases of 1-3 calls, string values spiced in every other case. */
export function bfclTextCases(): TextCase[] {
  const cases: TextCase[] = [];
  let ordinal = 0;
  for (const file of BFCL_GROUND_TRUTH_FILES) {
    const entries = loadBfclEntries(file);
    const truths = loadBfclGroundTruth(file);
    truths.forEach((truth, index) => {
      const entry = entries[index];
      if (entry?.id !== truth.id) throw new Error(`${file}: ground truth ${truth.id} is not entry ${entry?.id}`);
      const tools = entry.function.map((fn) => ({
        name: fn.name,
        description: fn.description,
        parameters: bfclToJsonSchema(fn.parameters),
      }));
      const calls = truth.ground_truth.map((call) => {
        const [name, expected] = Object.entries(call)[0] as [string, Readonly<Record<string, readonly unknown[]>>];
        return { name, arguments: firstValues(expected) };
      });
      for (let start = 0; start < calls.length; start += 3) {
        ordinal += 1;
        const group = calls.slice(start, start + 3).map((call) => ({ ...call, arguments: { ...call.arguments } }));
        if (ordinal % 2 === 0) {
          const target = group.find((call) => Object.values(call.arguments).some((value) => typeof value === 'string'));
          const key =
            target && Object.keys(target.arguments).find((name) => typeof target.arguments[name] === 'string');
          if (target && key) target.arguments[key] = `${target.arguments[key] as string}${SPICE}`;
        }
        cases.push({ id: `${truth.id}#${start / 3}`, tools, calls: group });
      }
    });
  }
  return cases;
}

export const PROSE = [
  'Let me look that up for you.',
  'Bien sûr — je vérifie ça tout de suite. 👍',
  "I'll call the tool now; the result follows.",
  '好的，我来查一下。',
];

/** Reasoning sections in each syntax, holding `decoy` (a call that must not be read). */
export const REASONING: readonly ((decoy: string) => string)[] = [
  (decoy) => `<think>\nThe user wants this. Maybe:\n${decoy}\nNo, different values.\n</think>\n\n`,
  (decoy) => `First thoughts, with a draft:\n${decoy}\nthat draft is wrong.\n</think>\n\n`,
  (decoy) => `[THINK]Draft: ${decoy} -- not this one.[/THINK]`,
  (decoy) => `<|START_THINKING|>Draft:\n${decoy}\n<|END_THINKING|>\n`,
  (decoy) => `<seed:think>Draft:\n${decoy}\n</seed:think>\n`,
];
