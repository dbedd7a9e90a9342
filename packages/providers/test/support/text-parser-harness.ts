/**
 * The shared harness for the text tool-call parser's fuzz, growth and bench runs (the streaming work builds on it):
 * multi-call texts in every registered dialect (from the test renderers), the worst-case texts of a given size
 * (runs of whitespace, openers without closers, unclosed and nested reasoning, deep nesting, many calls), a streaming
 * run over any split, and CPU time measured with `process.cpuUsage` (robust on a shared machine: it counts this
 * process's work only).
 */
import {
  createTextToolCallParser,
  parseTextToolCalls,
  type JsonSchemaTool,
  type ParseTextToolCallsOptions,
  type TextToolCall,
  type TextToolCalls,
} from '@toolwright/providers/text';
import { mulberry32 } from '../../../core/test/support/seeded-random';
import { RENDERERS, type DialectRenderer, type RenderCall } from './text-dialects';

export const HARNESS_TOOLS: readonly JsonSchemaTool[] = [
  {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer' }, units: { type: 'string' } },
    },
  },
  {
    name: 'get_time',
    description: 'The time in a zone',
    parameters: { type: 'object', properties: { zone: { type: 'string' }, precise: { type: 'boolean' } } },
  },
];

/** Three calls with the values the templates write differently (quotes, a newline, unicode, a number, a boolean). */
export const HARNESS_CALLS: readonly RenderCall[] = [
  { name: 'get_weather', arguments: { city: 'Paris', days: 3 } },
  { name: 'get_time', arguments: { zone: 'Europe/Oslo "CET"', precise: true } },
  { name: 'get_weather', arguments: { city: 'São Paulo\nBrazil', units: "it's metric" } },
];

/** A label for a renderer: its dialect, and its form when the dialect has several. */
export function rendererLabel(renderer: DialectRenderer): string {
  return renderer.form ? `${renderer.dialect} (${renderer.form})` : renderer.dialect;
}

export interface HarnessText {
  readonly label: string;
  readonly text: string;
}

/** The dialects without markers of their own (they read only calls naming a known tool). */
const MARKER_LESS = new Set(['react', 'xlam', 'pythonic', 'json']);

/**
 * Multi-call texts in one renderer's dialect: the calls alone, after prose, after a reasoning section holding a decoy
 * call, as two turns of calls written one after the other (several blocks), and after reasoning and a block calling a
 * tool nobody offered (refused by the dialects with markers: a refusal the stream settles before its end).
 */
export function multiCallTexts(renderer: DialectRenderer): HarnessText[] {
  const calls = HARNESS_CALLS;
  const decoy = renderer.render([{ name: 'get_time', arguments: { zone: 'decoy' } }], {});
  return [
    { label: 'calls', text: renderer.render(calls, {}) },
    { label: 'prose', text: renderer.render(calls, { prose: "Sure, I'll check both." }) },
    { label: 'reasoning', text: `<think>\nMaybe:\n${decoy}\nno.\n</think>\n\n${renderer.render(calls, {})}` },
    {
      label: 'blocks',
      text: `${renderer.render(calls.slice(0, 1), {})}\n\n${renderer.render(calls.slice(1), {})}\n\n${renderer.render(calls.slice(0, 2), {})}`,
    },
    // A marker-less dialect reads only calls naming a known tool: an unknown one is prose to it, nothing refused.
    ...(MARKER_LESS.has(renderer.dialect)
      ? []
      : [
          {
            label: 'unknown tool',
            text: `<think>\nno tool for news\n</think>\n\n${renderer.render([{ name: 'get_news', arguments: { topic: 'x' } }], {})}\n\n${renderer.render(calls, {})}`,
          },
        ]),
  ];
}

/**
 * A long multi-call text in one renderer's dialect (reasoning, then turns of 1-3 calls with prose between, about 3-6
 * KiB): long enough that the streaming parser settles calls while the text still arrives.
 */
export function longCallText(renderer: DialectRenderer): HarnessText & { readonly calls: number } {
  const turns: string[] = [`<think>\n${PROSE.repeat(4)}\n</think>\n`];
  let count = 0;
  for (let turn = 0; turn < 8; turn += 1) {
    const calls = HARNESS_CALLS.slice(turn % 3, (turn % 3) + 1 + (turn % 2));
    count += calls.length;
    turns.push(renderer.render(calls, {}), `\n\nTurn ${turn} done. ${PROSE}\n\n`);
  }
  return { label: 'long', text: turns.join(''), calls: count };
}

/** The text cut into pieces at the given offsets (sorted, duplicates allowed: an empty piece is a valid delta). */
export function splitAt(text: string, points: readonly number[]): string[] {
  const sorted = [...points].sort((a, b) => a - b);
  const pieces: string[] = [];
  let position = 0;
  for (const point of sorted) {
    pieces.push(text.slice(position, point));
    position = point;
  }
  pieces.push(text.slice(position));
  return pieces;
}

/** The text in pieces of `size` characters. */
export function piecesOf(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let position = 0; position < text.length; position += size) pieces.push(text.slice(position, position + size));
  return pieces;
}

/**
 * The text pushed through a fresh streaming parser in pieces of `size` characters, each cut just before its push (as a
 * stream hands over each delta once: no list of every piece held alive for the whole run).
 */
export function streamInPieces(text: string, size: number, options: ParseTextToolCallsOptions): StreamRun {
  const parser = createTextToolCallParser(options);
  const pushed: TextToolCall[] = [];
  for (let position = 0; position < text.length; position += size)
    for (const call of parser.push(text.slice(position, position + size))) pushed.push(call);
  const ended = parser.end();
  return { pushed, ended, calls: [...pushed, ...ended.calls] };
}

/** `count` seeded split points of a text. */
export function randomPoints(text: string, count: number, random: () => number): number[] {
  return Array.from({ length: count }, () => Math.floor(random() * (text.length + 1)));
}

export interface StreamRun {
  /** every call `push` returned, in order */
  readonly pushed: readonly TextToolCall[];
  /** what `end()` returned */
  readonly ended: TextToolCalls;
  /** pushed then ended calls: what the stream gave in all */
  readonly calls: readonly TextToolCall[];
}

/** The text pushed piece by piece through a fresh streaming parser. */
export function streamPieces(pieces: readonly string[], options: ParseTextToolCallsOptions): StreamRun {
  const parser = createTextToolCallParser(options);
  const pushed: TextToolCall[] = [];
  for (const piece of pieces) pushed.push(...parser.push(piece));
  const ended = parser.end();
  return { pushed, ended, calls: [...pushed, ...ended.calls] };
}

/** JSON with sorted keys: two calls are the same when these are equal. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

export interface FuzzReport {
  /** split points tried */
  readonly points: number;
  /** streams run */
  readonly streams: number;
  /** the first mismatches: label, the split, what the whole text gave and what the stream gave */
  readonly mismatches: readonly string[];
}

/**
 * The streaming parser against the whole-text parser for one text: every two-piece split (when `everyPoint`), then
 * `randomRuns` seeded splits into 2-`maxPieces` pieces. A run matches when the stream gives exactly the whole text's
 * calls, in order, each once, and `end()` gives the whole text's refusals and content.
 */
export function fuzzText(
  label: string,
  text: string,
  options: ParseTextToolCallsOptions,
  random: () => number,
  runs: { readonly everyPoint: boolean; readonly randomRuns: number; readonly maxPieces: number },
): FuzzReport {
  const parsed = parseTextToolCalls(text, options);
  const whole = canonical({ calls: parsed.calls, rejected: parsed.rejected, content: parsed.content });
  const mismatches: string[] = [];
  let points = 0;
  let streams = 0;
  const check = (split: readonly number[]) => {
    points += split.length;
    streams += 1;
    const stream = streamPieces(splitAt(text, split), options);
    const run = canonical({ calls: stream.calls, rejected: stream.ended.rejected, content: stream.ended.content });
    if (run !== whole && mismatches.length < 3)
      mismatches.push(`${label} split at ${JSON.stringify(split)}: whole ${whole}, streamed ${run}`);
  };
  if (runs.everyPoint) for (let point = 1; point < text.length; point += 1) check([point]);
  for (let run = 0; run < runs.randomRuns; run += 1)
    check(randomPoints(text, 1 + Math.floor(random() * (runs.maxPieces - 1)), random));
  return { points, streams, mismatches };
}

/**
 * The fuzz over one renderer: every two-piece split and `randomRuns` random splits of its short multi-call texts,
 * and `longRuns` random splits into up to 80 pieces of its long text. `seed` fixes the random splits.
 */
export function fuzzDialect(
  renderer: DialectRenderer,
  seed: number,
  counts: { readonly randomRuns: number; readonly longRuns: number },
): FuzzReport {
  const random = mulberry32(seed);
  let points = 0;
  let streams = 0;
  const mismatches: string[] = [];
  const add = (report: FuzzReport) => {
    points += report.points;
    streams += report.streams;
    mismatches.push(...report.mismatches);
  };
  const options = { tools: HARNESS_TOOLS };
  for (const { label, text } of multiCallTexts(renderer))
    add(
      fuzzText(`${rendererLabel(renderer)} ${label}`, text, options, random, {
        everyPoint: true,
        randomRuns: counts.randomRuns,
        maxPieces: 12,
      }),
    );
  const long = longCallText(renderer);
  add(
    fuzzText(`${rendererLabel(renderer)} ${long.label}`, long.text, options, random, {
      everyPoint: false,
      randomRuns: counts.longRuns,
      maxPieces: 80,
    }),
  );
  return { points, streams, mismatches };
}

/** A text of about `size` characters made of `unit` repeated. */
export function repeatTo(unit: string, size: number): string {
  return unit.repeat(Math.max(1, Math.ceil(size / Math.max(1, unit.length))));
}

const PROSE = 'The user asks about the weather; I should check the forecast, then answer briefly. ';

export interface WorstCase {
  readonly label: string;
  /** the text at about `size` characters */
  readonly text: (size: number) => string;
}

/** Worst cases that do not depend on a dialect: reasoning and whitespace, in their hard forms. */
export function generalWorstCases(): WorstCase[] {
  const call = RENDERERS[0]!.render(HARNESS_CALLS.slice(0, 1), {});
  return [
    { label: 'reasoning', text: (size) => `<think>${repeatTo(PROSE, size)}</think>${call}` },
    { label: 'unclosed reasoning', text: (size) => `<think>${repeatTo(PROSE, size)}` },
    {
      label: 'nested reasoning',
      text: (size) => `${repeatTo('<think>a ', size / 2)}${repeatTo('</think> ', size / 2)}`,
    },
    { label: 'orphan close after reasoning', text: (size) => `${repeatTo(PROSE, size)}</think>${call}` },
    // streamed, each call is returned while the text arrives (the reasoning is settled), so the text is read in steps
    { label: 'many calls after reasoning', text: (size) => `<think>plan</think>\n${repeatTo(call, size)}` },
    { label: 'whitespace', text: (size) => ' '.repeat(size) },
    { label: 'lines of blanks', text: (size) => repeatTo(' \t \n', size) },
    { label: 'prose', text: (size) => repeatTo(PROSE, size) },
    { label: 'brackets', text: (size) => `${'['.repeat(size / 2)}${']'.repeat(size / 2)}` },
    { label: 'braces unclosed', text: (size) => repeatTo('{"name": "x", "arguments": ', size) },
    { label: 'fences', text: (size) => repeatTo('```\nx\n', size) },
    // The reference grammars' optional parts (Command-R's and ReAct's numbered markers and blanks around them, ReAct's
    // note after the name and wrapper before the object, tool_code on the opener's line), each without its end.
    { label: 'numbered markers and blanks', text: (size) => repeatTo('Action 1 :\n 2 \n', size) },
    { label: 'marker then blanks', text: (size) => `Action 1:${repeatTo(' \n', size)}` },
    {
      label: 'react markers without input',
      text: (size) => repeatTo('Action: get_weather (a note\nAction 2 Input 2: Wrapper(', size),
    },
    { label: 'react note unclosed', text: (size) => `Action: get_weather ${repeatTo('(note ', size)}` },
    { label: 'tool_code openers', text: (size) => repeatTo('```tool_code print((get_weather(city="x"), ', size) },
    { label: 'action fences unclosed', text: (size) => repeatTo('Action:\n```json\n{"action": "get_weather", ', size) },
    { label: 'action fences without close', text: (size) => repeatTo('```\n{"action": "get_weather"} ', size) },
    { label: 'tool_code comments', text: (size) => `\`\`\`tool_code\n${repeatTo('# note\n', size)}\`\`\`` },
  ];
}

/** One renderer's worst cases: many calls, its openers without closers (cut at several points), deep nesting. */
export function dialectWorstCases(renderer: DialectRenderer): WorstCase[] {
  const one = renderer.render(HARNESS_CALLS.slice(0, 1), {});
  const cut = (fraction: number) => one.slice(0, Math.max(1, Math.floor(one.length * fraction)));
  const cycle = (count: number) =>
    Array.from({ length: count }, (_, index) => HARNESS_CALLS[index % HARNESS_CALLS.length]!);
  // The calls cycle through HARNESS_CALLS, whose renderings differ in length (and a dialect may wrap its calls): the
  // count comes from the rendered length per call over a few cycles, so the text is about `size` characters.
  const probe = HARNESS_CALLS.length * 4;
  const perCall = renderer.render(cycle(probe), {}).length / probe;
  const callsFor = (size: number) => cycle(Math.max(1, Math.round(size / perCall)));
  return [
    { label: 'many calls', text: (size) => renderer.render(callsFor(size), {}) },
    { label: 'opener repeated', text: (size) => repeatTo(cut(0.2), size) },
    { label: 'half calls repeated', text: (size) => repeatTo(`${cut(0.5)} `, size) },
    { label: 'cut calls repeated', text: (size) => repeatTo(cut(0.9), size) },
    { label: 'blanks inside', text: (size) => `${cut(0.5)}${' '.repeat(size)}${one.slice(cut(0.5).length)}` },
    { label: 'deep nesting', text: (size) => `${cut(0.5)}${'[{"a": '.repeat(size / 7)}` },
    { label: 'reasoning before', text: (size) => `<think>${repeatTo(PROSE, size)}</think>${one}` },
  ];
}

/** CPU time of `run` in milliseconds (user + system of this process). */
export function cpuMs(run: () => void): number {
  const before = process.cpuUsage();
  run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** The least CPU time of `rounds` runs: the run least disturbed by the machine's other work. */
export function minCpuMs(run: () => void, rounds: number): number {
  let least = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round += 1) least = Math.min(least, cpuMs(run));
  return least;
}

/** The text parsed whole, and streamed in pieces of `pieceSize`. */
export function parseBothWays(text: string, pieceSize: number, options: ParseTextToolCallsOptions) {
  return {
    whole: () => parseTextToolCalls(text, options),
    streamed: () => streamInPieces(text, pieceSize, options),
  };
}

/**
 * How the CPU time of `run` grows when its input grows four times: the least time of `rounds` runs at `4 * size`
 * over the least at `size` (floored at `floorMs`, 5 ms unless given, so timer noise or a collector's pause in a busy
 * test worker on a fast run reads as no growth: a quadratic run at these sizes takes far longer). Linear work gives
 * about 4, quadratic about 16.
 */
export function cpuGrowth(
  make: (size: number) => string,
  run: (text: string) => void,
  options: { readonly size: number; readonly rounds?: number; readonly floorMs?: number },
): { readonly ratio: number; readonly smallMs: number; readonly largeMs: number } {
  const rounds = options.rounds ?? 3;
  const small = make(options.size);
  const large = make(options.size * 4);
  run(small); // warm up the code paths before timing
  const smallMs = minCpuMs(() => run(small), rounds);
  const largeMs = minCpuMs(() => run(large), rounds);
  return { ratio: largeMs / Math.max(smallMs, options.floorMs ?? 5), smallMs, largeMs };
}
