import 'reflect-metadata';
import fc from 'fast-check';
import { findJsonObjects } from '../../src/hermes/text';
import { cpuGrowth } from '../support/text-parser-harness';

/**
 * The Hermes reader's search for JSON objects in free text: every top-level object JSON.parse reads, in order, text
 * that does not parse skipped (an object inside it may still be found), an opener that never closes ending the search.
 * The reference is the search as it was written first (a balanced scan and a JSON.parse attempt at every opener),
 * which is quadratic in nested openers; the one in use is linear and finds the same objects.
 */
function reference(text: string): { value: unknown; start: number; end: number }[] {
  const balancedEnd = (start: number) => {
    let depth = 0;
    let inString = false;
    for (let index = start; index < text.length; index += 1) {
      const character = text[index];
      if (inString) {
        if (character === '\\') index += 1;
        else if (character === '"') inString = false;
        continue;
      }
      if (character === '"') inString = true;
      else if (character === '{') depth += 1;
      else if (character === '}') {
        depth -= 1;
        if (depth === 0) return index + 1;
      }
    }
    return -1;
  };
  const found: { value: unknown; start: number; end: number }[] = [];
  let position = 0;
  while (position < text.length) {
    const start = text.indexOf('{', position);
    if (start < 0) break;
    const end = balancedEnd(start);
    if (end < 0) break;
    try {
      found.push({ value: JSON.parse(text.slice(start, end)) as unknown, start, end });
      position = end;
    } catch {
      position = start + 1;
    }
  }
  return found;
}

const PIECES = [
  '{',
  '}',
  '[',
  ']',
  '"',
  '\\',
  ':',
  ',',
  ' ',
  '\n',
  'a',
  '1',
  '-',
  '.',
  'e',
  'true',
  'null',
  'x',
  '"a"',
  '\\u0041',
  '\\q',
  '\u0001',
];

describe('findJsonObjects', () => {
  it('finds what the first search found, on texts of JSON-like pieces', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }), (pieces) => {
        const text = pieces.join('');
        expect(findJsonObjects(text)).toEqual(reference(text));
      }),
      { numRuns: 20_000, seed: 41 },
    );
  });

  it('finds objects in prose, inside an object that does not parse, and after one', () => {
    const text = 'Call {tool: {"name": "a", "arguments": {"x": [1, 2.5e3, "\\u00e9"]}}} then {"name": "b"} {broken';
    expect(findJsonObjects(text).map((object) => object.value)).toEqual([
      { name: 'a', arguments: { x: [1, 2500, 'é'] } },
      { name: 'b' },
    ]);
    expect(findJsonObjects(text)).toEqual(reference(text));
  });

  it('costs linear time on nested openers that do not parse', () => {
    for (const make of [
      (size: number) => `${'{'.repeat(size / 2)}x${'}'.repeat(size / 2)}`,
      (size: number) => `${'{"a":'.repeat(size / 6)}x${'}'.repeat(size / 6)}`,
      (size: number) => `${'{"a":['.repeat(size / 8)}x${']}'.repeat(size / 8)}`,
    ]) {
      const text = make(4000);
      expect(findJsonObjects(text)).toEqual(reference(text));
      // 128 KiB -> 512 KiB, least of 5 rounds, the small run floored at 20 ms: a collector's pause or a busy core reads
      // as growth on a run of a few milliseconds (at 64 KiB one did, in a CI run), and the quadratic search took 1.3 s
      // at 16 KiB, so at these sizes it reads far above the limit.
      const growth = cpuGrowth(make, (input) => findJsonObjects(input), { size: 128 * 1024, rounds: 5, floorMs: 20 });
      expect(growth.ratio).toBeLessThan(8);
    }
  });
});
