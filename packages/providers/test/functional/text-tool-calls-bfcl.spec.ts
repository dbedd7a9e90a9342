import 'reflect-metadata';
import { createTextToolCallParser, parseTextToolCalls, type TextToolCalls } from '@toolwright/providers/text';
import { RENDERERS, type DialectRenderer, type RenderCall } from '../support/text-dialects';
import { mulberry32 } from '../../../core/test/support/seeded-random';
import { bfclTextCases, PROSE, REASONING, type TextCase } from '../support/text-corpus';

/**
 * issue 27's acceptance test: the BFCL ground-truth calls rendered into every registered dialect (as its chat
 * template writes them), with prose, reasoning sections holding a decoy call, 1-3 parallel calls and values with
 * quotes, newlines, unicode and backslashes, are read back exactly (>= 99 %, no call with a wrong name or value);
 * negative texts (prose naming the tools, a fenced JSON example, a cut-off call) give no call; the streaming
 * parser gives the same calls for random splits (seeded).
 */
const CASES = bfclTextCases();

/** JSON with sorted keys: two values are the same call arguments when these are equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

const callKey = (call: RenderCall) => `${call.name} ${canonical(call.arguments)}`;

/** The JSON type names a value has (an integer is also a number). */
function typesOf(value: unknown): string[] {
  if (value === null) return ['null'];
  if (Array.isArray(value)) return ['array'];
  if (typeof value === 'number') return Number.isInteger(value) ? ['integer', 'number'] : ['number'];
  return [typeof value];
}

/**
 * Calls an XML-style template cannot write so that they read back as the same JSON: a string `None`/`null` or one
 * with a newline at an edge (the markup's own), and a value whose type its parameter's schema does not allow (BFCL
 * has `2` for string parameters with enum "1", "2", ...: the raw text `2` reads, correctly, as the string "2").
 */
function unwritableAsRawText(testCase: TextCase): boolean {
  return testCase.calls.some((call) => {
    const tool = testCase.tools.find((candidate) => candidate.name === call.name);
    const properties = (tool?.parameters?.['properties'] ?? {}) as Record<string, { type?: string | string[] }>;
    return Object.entries(call.arguments).some(([key, value]) => {
      if (typeof value === 'string' && (/^\s*(None|null)\s*$/.test(value) || /^\r?\n|\r?\n$/.test(value))) return true;
      const declared = properties[key]?.type;
      const allowed = declared === undefined ? [] : Array.isArray(declared) ? declared : [declared];
      return allowed.length > 0 && !typesOf(value).some((type) => allowed.includes(type));
    });
  });
}

/** A decoy: the same calls with every argument dropped and a different tool order, inside reasoning. */
function decoyOf(renderer: DialectRenderer, calls: readonly RenderCall[]): string {
  return renderer.render(
    [...calls].reverse().map((call) => ({ name: call.name, arguments: {} })),
    {},
  );
}

function textOf(renderer: DialectRenderer, testCase: TextCase, ordinal: number): string {
  const prose = PROSE[ordinal % PROSE.length];
  const body = renderer.render(testCase.calls, { prose });
  if (ordinal % 3 !== 0) return body;
  const reasoning = REASONING[(ordinal / 3) % REASONING.length] as (decoy: string) => string;
  return reasoning(decoyOf(renderer, testCase.calls)) + body;
}

function splitRandomly(text: string, random: () => number): string[] {
  const points = Array.from({ length: 1 + Math.floor(random() * 6) }, () => Math.floor(random() * text.length)).sort(
    (a, b) => a - b,
  );
  const parts: string[] = [];
  let previous = 0;
  for (const point of [...points, text.length]) {
    parts.push(text.slice(previous, point));
    previous = point;
  }
  return parts;
}

function streamed(text: string, tools: TextCase['tools'], random: () => number): TextToolCalls {
  const parser = createTextToolCallParser({ tools });
  const early = splitRandomly(text, random).flatMap((delta) => parser.push(delta));
  const rest = parser.end();
  return { ...rest, calls: [...early, ...rest.calls] };
}

interface Tally {
  texts: number;
  expected: number;
  exact: number;
  wrong: string[];
  missed: string[];
  otherDialect: string[];
  streamMismatch: string[];
  excluded: number;
}

function tallyFor(renderer: DialectRenderer): Tally {
  const tally: Tally = {
    texts: 0,
    expected: 0,
    exact: 0,
    wrong: [],
    missed: [],
    otherDialect: [],
    streamMismatch: [],
    excluded: 0,
  };
  const random = mulberry32(27);
  CASES.forEach((testCase, ordinal) => {
    if (renderer.rawValues && unwritableAsRawText(testCase)) {
      tally.excluded += 1;
      return;
    }
    const text = textOf(renderer, testCase, ordinal);
    const result = parseTextToolCalls(text, { tools: testCase.tools });
    tally.texts += 1;
    tally.expected += testCase.calls.length;
    const expected = testCase.calls.map(callKey);
    const remaining = [...expected];
    for (const call of result.calls) {
      const at = remaining.indexOf(callKey(call));
      if (at < 0) tally.wrong.push(`${testCase.id}: read ${callKey(call)}; expected ${expected.join(' | ')}`);
      else {
        remaining.splice(at, 1);
        tally.exact += 1;
      }
      if (call.dialect !== renderer.dialect) tally.otherDialect.push(`${testCase.id}: ${call.dialect}`);
    }
    for (const missing of remaining)
      tally.missed.push(
        `${testCase.id}: ${missing.slice(0, 160)} (${result.rejected
          .map((r) => r.reason)
          .join('; ')
          .slice(0, 300)})`,
      );
    if (ordinal % 2 === 0) {
      const stream = streamed(text, testCase.tools, random);
      if (canonical(stream.calls) !== canonical(result.calls) || stream.content !== result.content)
        tally.streamMismatch.push(testCase.id);
    }
  });
  return tally;
}

const label = (renderer: DialectRenderer) =>
  renderer.form ? `${renderer.dialect} (${renderer.form})` : renderer.dialect;

describe('BFCL ground truth read back from every text dialect', () => {
  it('covers every ground-truth entry', () => {
    expect(CASES.length).toBeGreaterThan(2500);
  });

  it.each(RENDERERS.map((renderer) => [label(renderer), renderer] as const))(
    '%s: >= 99 %% read exactly, no wrong call, same calls streamed',
    (_label, renderer) => {
      const tally = tallyFor(renderer);
      const share = tally.exact / tally.expected;
      expect({
        wrong: tally.wrong.slice(0, 5),
        otherDialect: tally.otherDialect.slice(0, 5),
        streamMismatch: tally.streamMismatch.slice(0, 5),
      }).toEqual({ wrong: [], otherDialect: [], streamMismatch: [] });
      if (share < 0.99)
        throw new Error(
          `${label(renderer)}: ${(share * 100).toFixed(2)} % read exactly; missed: ${tally.missed.slice(0, 8).join('\n')}`,
        );
      // XML-style only: BFCL values whose type their schema does not allow, and string None (28 texts, 1.07 %).
      expect(tally.excluded).toBeLessThan(CASES.length * 0.02);
      console.log(
        ...tally.missed.map((line) => `missed ${line}\n`),
        `${label(renderer)}: ${tally.exact}/${tally.expected} calls (${(share * 100).toFixed(2)} %) in ${tally.texts} texts, excluded ${tally.excluded}, missed ${tally.missed.length}`,
      );
    },
    60_000,
  );
});

const CUT_MARK = 'CUT_HERE';

/** The case's first call with one more string argument, the text cut inside that string: a cut-off call. */
function cutOffText(renderer: DialectRenderer, testCase: TextCase, ordinal: number): string {
  const [first] = testCase.calls;
  if (!first) throw new Error(`${testCase.id} has no call`);
  const call = { name: first.name, arguments: { ...first.arguments, zz_note: `before ${CUT_MARK} after` } };
  const text = textOf(renderer, { ...testCase, calls: [call] }, ordinal);
  return text.slice(0, text.lastIndexOf(CUT_MARK));
}

/** Prose that names each tool and its arguments, and a fenced JSON example of the arguments alone. */
function proseAndExample(testCase: TextCase): string {
  const mentions = testCase.calls
    .map((call) => `I could call ${call.name} (or \`${call.name}\`) with ${Object.keys(call.arguments).join(', ')}.`)
    .join(' ');
  const example = testCase.calls[0]?.arguments ?? {};
  const schema = testCase.tools[0];
  return `${mentions}\nFor example, the arguments would look like this:\n\`\`\`json\n${JSON.stringify(example, null, 2)}\n\`\`\`\nand the tool is declared as:\n\`\`\`json\n${JSON.stringify(schema)}\n\`\`\`\nShall I go ahead?`;
}

describe('negative texts give no call', () => {
  it('prose naming the tools and fenced JSON examples (arguments, the declaration): no call, nothing rejected', () => {
    const found = CASES.flatMap((testCase) => {
      const result = parseTextToolCalls(proseAndExample(testCase), { tools: testCase.tools });
      return result.calls.length + result.rejected.length > 0 ? [`${testCase.id}: ${JSON.stringify(result)}`] : [];
    });
    expect(found.slice(0, 5)).toEqual([]);
  });

  it.each(RENDERERS.map((renderer) => [label(renderer), renderer] as const))(
    '%s: a cut-off call is rejected, never read (also streamed)',
    (_label, renderer) => {
      const random = mulberry32(2027);
      const problems: string[] = [];
      CASES.forEach((testCase, ordinal) => {
        if (ordinal % 4 !== 0) return;
        const text = cutOffText(renderer, testCase, ordinal);
        const result = parseTextToolCalls(text, { tools: testCase.tools });
        if (result.calls.length > 0 || result.rejected.length === 0)
          problems.push(
            `${testCase.id}: ${JSON.stringify(text.slice(-120))} -> ${JSON.stringify(result).slice(0, 300)}`,
          );
        const stream = streamed(text, testCase.tools, random);
        if (stream.calls.length > 0) problems.push(`${testCase.id}: streamed ${JSON.stringify(stream.calls)}`);
      });
      expect(problems.slice(0, 5)).toEqual([]);
    },
    60_000,
  );
});
