import fc from 'fast-check';
import { LONG_STRING, StreamedArgumentsReader } from '../../src/shared/streamed-arguments-reader';

/** What the reader reported, in order. */
type ArgumentsTextEvent =
  | { readonly kind: 'member'; readonly key: string; readonly text: string }
  | { readonly kind: 'text'; readonly path: string; readonly text: string };

function readInPieces(
  text: string,
  cuts: readonly number[],
): { events: ArgumentsTextEvent[]; reader: StreamedArgumentsReader } {
  const events: ArgumentsTextEvent[] = [];
  const reader = new StreamedArgumentsReader({
    member: (key, value) => events.push({ kind: 'member', key, text: value }),
    text: (path, value) => events.push({ kind: 'text', path, text: value }),
  });
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((left, right) => left - right);
  let at = 0;
  for (const point of [...points, text.length]) {
    if (point <= at) continue;
    reader.push(text.slice(at, point));
    at = point;
  }
  return { events, reader };
}

describe('StreamedArgumentsReader', () => {
  it('finds every top-level member, with its exact text, wherever the text is cut', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 40 }),
        (document, indent, cuts) => {
          const text = JSON.stringify(document, null, indent ? 2 : undefined);
          const { events, reader } = readInPieces(text, cuts);
          expect(reader.done).toBe(true);
          const members = events.filter((event) => event.kind === 'member');
          // JSON.parse of each member's text gives the member's value; the keys come in the document's order.
          expect(members.map((member) => member.key)).toEqual(Object.keys(document));
          for (const member of members)
            expect(JSON.parse(member.text)).toEqual(JSON.parse(JSON.stringify(document[member.key])));
        },
      ),
      { seed: 44, numRuns: 500 },
    );
  });

  it('shows a long string as it arrives (decoded), and a short one not at all', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', minLength: 0, maxLength: 300 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        (value, cuts) => {
          const text = JSON.stringify({ note: value, list: [value] });
          const { events } = readInPieces(text, cuts);
          const shown = (path: string) =>
            events
              .filter((event) => event.kind === 'text' && event.path === path)
              .map((event) => event.text)
              .join('');
          const expected = value.length >= LONG_STRING ? value : '';
          expect(shown('note')).toBe(expected);
          expect(shown('list[0]')).toBe(expected);
        },
      ),
      { seed: 44, numRuns: 500 },
    );
  });

  it.each([
    ["{'a': 1}", 'single quotes'],
    ['{"a": True}', 'a Python literal'],
    ['"{\\"a\\": 1}"', 'a double-encoded document'],
    ['```json\n{"a": 1}\n```', 'a fenced block'],
    ['{"a": "\\x41"}', 'an escape JSON does not have'],
    ['{"a": 01}', 'a number JSON does not have'],
    ['{"a": 1} {"b": 2}', 'text after the document'],
  ])('stops at %s (%s): nothing after it is reported early', (text) => {
    const { events, reader } = readInPieces(text, [3, 7]);
    expect(reader.stopped).toBe(true);
    expect(events.filter((event) => event.kind === 'member' && event.key !== 'a')).toEqual([]);
  });

  it('reports the members before a cut-off end, and none after it', () => {
    const { events, reader } = readInPieces('{"a": "x", "b": [1, 2', [4, 9]);
    expect(reader.done).toBe(false);
    expect(events).toEqual([{ kind: 'member', key: 'a', text: '"x"' }]);
  });

  it('reads the same whatever the chunk size (one pass, its state kept between chunks)', () => {
    const text = JSON.stringify({
      text: 'ab\\"c\u00e9'.repeat(50_000),
      list: Array.from({ length: 20_000 }, (_, index) => index),
    });
    const inOne = readInPieces(text, []);
    const inPieces = readInPieces(
      text,
      Array.from({ length: text.length / 3 }, (_, index) => index * 3),
    );
    expect(inPieces.events.filter((event) => event.kind === 'member')).toEqual(
      inOne.events.filter((event) => event.kind === 'member'),
    );
  });
});
