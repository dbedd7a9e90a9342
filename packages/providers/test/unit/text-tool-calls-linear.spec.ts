import 'reflect-metadata';
import { createTextToolCallParser, parseTextToolCalls } from '@toolwright/providers/text';
import {
  HARNESS_TOOLS,
  canonical,
  cpuGrowth,
  dialectWorstCases,
  generalWorstCases,
  minCpuMs,
  piecesOf,
  rendererLabel,
  repeatTo,
  splitAt,
  streamPieces,
} from '../support/text-parser-harness';
import { RENDERERS } from '../support/text-dialects';

/**
 * The text parser stays linear in its input and its streaming form is incremental and monotonic; reasoning in every
 * tag a model family writes, and calls quoted in fenced code blocks of the prose, are never read.
 * Growth is CPU time (process.cpuUsage, least of three runs) at four times the size: linear work gives about 4,
 * quadratic about 16; 8 leaves room for a loaded machine.
 */
const tools = HARNESS_TOOLS;
const PROSE = 'The user wants the weather in Paris; I will check the forecast and then answer. ';
const parse = (text: string) => parseTextToolCalls(text, { tools });
const GROWTH = 8;

describe('text parsing is linear in the text', () => {
  it('reasoning before the calls (blanked before the dialects run) costs linear time: the gpt-oss header', () => {
    const make = (size: number) =>
      `<think>${repeatTo(PROSE, size)}</think><|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>`;
    expect(parse(make(1000)).calls).toEqual([
      { name: 'get_weather', arguments: { city: 'Paris' }, dialect: 'gpt-oss' },
    ]);
    expect(cpuGrowth(make, parse, { size: 32 * 1024 }).ratio).toBeLessThan(GROWTH);
  });

  it('runs of whitespace and of blank lines cost linear time', () => {
    expect(cpuGrowth((size) => ' '.repeat(size), parse, { size: 64 * 1024 }).ratio).toBeLessThan(GROWTH);
    expect(cpuGrowth((size) => repeatTo(' \t\n', size), parse, { size: 64 * 1024 }).ratio).toBeLessThan(GROWTH);
    // a GLM name followed by blanks (a lazy name before `\s*` retried every split of them)
    const glm = (size: number) => `<tool_call>get_weather${' '.repeat(size)}x`;
    expect(cpuGrowth(glm, parse, { size: 64 * 1024 }).ratio).toBeLessThan(GROWTH);
  });

  it('openers without closers and unclosed JSON candidates cost linear time', () => {
    for (const unit of ['{"name": "x", "arguments": ', '<function=get_weather', '{"tool_calls": ', '[{"name": "x", ']) {
      const growth = cpuGrowth((size) => repeatTo(unit, size), parse, { size: 32 * 1024 });
      expect([unit, growth.ratio < GROWTH]).toEqual([unit, true]);
    }
  });

  it('refused Python calls followed by more text cost linear time (a missing closer is searched for once)', () => {
    for (const unit of [
      '<function_calls>\nget_weather(1)\n</function',
      '<function_calls>\nget_weather(city=1) x\n',
      '[get_weather(1) x ',
    ]) {
      expect([unit, parse(repeatTo(unit, 4 * unit.length)).rejected.length > 0]).toEqual([unit, true]);
      const growth = cpuGrowth((size) => repeatTo(unit, size), parse, { size: 32 * 1024 });
      expect([unit, growth.ratio < GROWTH]).toEqual([unit, true]);
    }
  });

  it('many calls in one text cost linear time (blocks are merged, not compared in pairs)', () => {
    const call = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n';
    expect(parse(repeatTo(call, 10 * call.length)).calls).toHaveLength(10);
    expect(cpuGrowth((size) => repeatTo(call, size), parse, { size: 32 * 1024 }).ratio).toBeLessThan(GROWTH);
  });
});

describe("every dialect's worst cases cost linear time (the bench's cases, smaller)", () => {
  // The cases `npm run bench:text` times at 1 MiB, here at 16 and 64 KiB: many calls (read once however many dialects
  // look at them), openers without closers, blanks inside a call, deep nesting (one typed array of ends, no map entry
  // per opener), reasoning before the calls.
  const cases = [
    ...generalWorstCases().map((worst) => ({ label: worst.label, make: worst.text })),
    ...RENDERERS.flatMap((renderer) =>
      dialectWorstCases(renderer).map((worst) => ({
        label: `${rendererLabel(renderer)}: ${worst.label}`,
        make: worst.text,
      })),
    ),
  ];

  /** The cases whose growth is at least {@link GROWTH}, each measured again once (a quadratic case fails both). */
  const slowCases = (run: (text: string) => void) =>
    cases
      .filter(({ make }) => cpuGrowth(make, run, { size: 16 * 1024, floorMs: 4 }).ratio >= GROWTH)
      .map(({ label, make }) => ({
        label,
        ratio: cpuGrowth(make, run, { size: 16 * 1024, floorMs: 4, rounds: 5 }).ratio,
      }))
      .filter(({ ratio }) => ratio >= GROWTH);

  it('parsed whole', () => {
    expect(cases.length).toBeGreaterThan(200);
    expect(slowCases(parse)).toEqual([]);
  });

  it('streamed in 16-character pieces', () => {
    expect(slowCases((text) => streamPieces(piecesOf(text, 16), { tools }))).toEqual([]);
  });
});

describe('the streaming parser is incremental', () => {
  const stream = (text: string) => streamPieces(piecesOf(text, 16), { tools });

  it('after a closing reasoning tag, each piece costs in proportion to its size', () => {
    const make = (size: number) => `<think>plan</think>${repeatTo(PROSE, size)}`;
    expect(cpuGrowth(make, stream, { size: 32 * 1024 }).ratio).toBeLessThan(GROWTH);
  });

  it('many calls streamed cost linear time, and each is returned while the text still arrives', () => {
    const call = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n';
    const make = (size: number) => `<think>plan</think>${repeatTo(call, size)}`;
    const run = stream(make(200 * call.length));
    expect(run.calls).toHaveLength(200);
    expect(run.pushed.length).toBeGreaterThan(190);
    expect(cpuGrowth(make, stream, { size: 256 * 1024 }).ratio).toBeLessThan(GROWTH);
  });

  it('many calls streamed after a closed reasoning section cost a few times the whole-text parse, not its square', () => {
    // Every 256 characters the unsettled part is read: a reading that joined the whole text again (not only the
    // unsettled part) cost 11 to 20 times the whole-text parse at 512 KiB, and about 40 times at 1 MiB.
    const call = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n';
    const text = `<think>plan</think>${repeatTo(call, 512 * 1024)}`;
    const whole = minCpuMs(() => parse(text), 2);
    const streamed = minCpuMs(() => stream(text), 2);
    expect(streamed / Math.max(whole, 5)).toBeLessThan(6);
  });
});

describe('the streaming parser is monotonic', () => {
  const qwen = (city: string) =>
    `<tool_call>\n<function=get_weather>\n<parameter=city>\n${city}\n</parameter>\n</function>\n</tool_call>\n`;

  it('three Qwen3-Coder calls split just after the third opener return each call once', () => {
    const text = `<think>plan</think>${qwen('Oslo')}${qwen('Rome')}${qwen('Lima')}`;
    const third = text.lastIndexOf('<tool_call>\n') + '<tool_call>\n'.length;
    const whole = parse(text).calls;
    expect(whole.map((call) => call.arguments['city'])).toEqual(['Oslo', 'Rome', 'Lima']);
    for (const split of [[third], [third, third + 3], [third, third + 10, third + 20]]) {
      const run = streamPieces(splitAt(text, split), { tools });
      expect([split, canonical(run.calls)]).toEqual([split, canonical(whole)]);
    }
    // the same with text enough between the pieces that the stream reads and settles each time
    const long = `<think>plan</think>${qwen('Oslo')}${PROSE.repeat(4)}${qwen('Rome')}${PROSE.repeat(4)}${qwen('Lima')}`;
    const opener = long.lastIndexOf('<tool_call>\n') + '<tool_call>\n'.length;
    const parser = createTextToolCallParser({ tools });
    const returned = [
      ...parser.push(long.slice(0, opener)),
      ...parser.push(long.slice(opener, opener + 5)),
      ...parser.push(long.slice(opener + 5)),
      ...parser.end().calls,
    ];
    expect(returned.map((call) => call.arguments['city'])).toEqual(['Oslo', 'Rome', 'Lima']);
  });
});

describe('reasoning and quoted examples are never read as calls', () => {
  const hermes = (city: string) =>
    `<tool_call>\n{"name": "get_weather", "arguments": {"city": "${city}"}}\n</tool_call>`;

  it.each([
    ['<thinking>', `<thinking>draft: ${hermes('Decoy')}</thinking>${hermes('Paris')}`],
    ['<THINK> (any case)', `<THINK>draft: ${hermes('Decoy')}</THINK>${hermes('Paris')}`],
    ['nested <think>', `<think>a <think>b</think> then ${hermes('Decoy')}</think>${hermes('Paris')}`],
    ['Kimi ◁think▷', `◁think▷draft: ${hermes('Decoy')}◁/think▷${hermes('Paris')}`],
    ['an orphan </think>', `draft: ${hermes('Decoy')}</think>${hermes('Paris')}`],
    ['[THINK] (Magistral)', `[THINK]draft: ${hermes('Decoy')}[/THINK]${hermes('Paris')}`],
  ])('%s', (_label, text) => {
    const result = parse(text);
    expect(result.calls.map((call) => call.arguments['city'])).toEqual(['Paris']);
    expect(result.content).toBe('');
  });

  it('a section still open at the end of the text runs to the end (nested too)', () => {
    expect(parse(`<think>a <think>b</think> ${hermes('Decoy')}`).calls).toEqual([]);
    expect(parse(`<thinking>${hermes('Decoy')}`).calls).toEqual([]);
  });

  it('a call quoted in a fenced code block of the prose is not read; its text stays in content', () => {
    const text = `To call it yourself, write:\n\n\`\`\`\n${hermes('Decoy')}\n\`\`\`\n\nNow I call it:\n${hermes('Paris')}`;
    const result = parse(text);
    expect(result.calls.map((call) => call.arguments['city'])).toEqual(['Paris']);
    expect(result.rejected).toEqual([]);
    expect(result.content).toContain('"Decoy"');
    const tilde = parse(`Example:\n\`\`\`xml\n${hermes('Decoy')}\n\`\`\`\n`);
    expect(tilde.calls).toEqual([]);
  });

  it("a dialect whose own format is a fence still reads it: Gemma's tool_code, a JSON call alone in its fence", () => {
    expect(parse('```tool_code\nget_weather(city="Paris")\n```').calls).toEqual([
      { name: 'get_weather', arguments: { city: 'Paris' }, dialect: 'gemma-tool-code' },
    ]);
    expect(parse('```json\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n```').calls).toEqual([
      { name: 'get_weather', arguments: { city: 'Paris' }, dialect: 'json' },
    ]);
    expect(
      parse('Action: ```json\n[{"tool_name": "get_weather", "parameters": {"city": "Paris"}}]\n```').calls,
    ).toEqual([{ name: 'get_weather', arguments: { city: 'Paris' }, dialect: 'command-r' }]);
  });

  it('streamed, a call after a fence that has not closed yet is held, then dropped when the fence closes', () => {
    const text = `<think>x</think>Example:\n\`\`\`\n${hermes('A')}\n${hermes('B')}\n${hermes('C')}\n${PROSE.repeat(5)}\n\`\`\`\nDone.`;
    for (let point = 1; point < text.length; point += 7) {
      const run = streamPieces(splitAt(text, [point, point + 50, point + 300]), { tools });
      expect([point, run.calls]).toEqual([point, []]);
    }
  });
});
