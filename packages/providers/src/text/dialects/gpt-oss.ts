/**
 * gpt-oss (OpenAI harmony): `<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city":
 * "Paris"}<|call|>`, each call a message of its own (`<|start|>assistant` before the next), the recipient also
 * allowed before the channel (`<|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>`)
 * (OpenAI's harmony response format; vLLM `openai_tool_parser.py`, SGLang `gpt_oss_detector.py`). `<|call|>` is a
 * stop token servers often leave out: a complete JSON object at the very end of the text is read. The analysis
 * channel is reasoning: a call addressed from it is refused, never read. A recipient outside `functions.` (the
 * built-in `browser.*`, `python`) is kept whole, so it names no offered tool unless the app offers one of that name.
 */
import { isPlainObject } from '../../shared/json-schema';
import type { DialectBlock, TextDialect } from '../dialect';
import { readJsonValue } from '../read/json';
import { skipBlank } from '../read/tags';

/**
 * A harmony message header around each `to=` (found with `indexOf`, never by a pattern retried at every position):
 * `[<|start|>assistant][<|channel|>CHANNEL][blanks]to=RECIPIENT[blanks][<|channel|>CHANNEL][blanks][<|constrain|>]
 * [blanks][CONTENT-TYPE][blanks]<|message|>`. Each piece is read once, left to right, by a sticky pattern whose
 * character classes do not overlap their neighbours', so nothing backtracks.
 */
const RECIPIENT = /[^\s<]+/y;
const WORD = /\w+/y;
const CONTENT_TYPE = /[\w-]+/y;
const BLANKS = /[ \t]*/y;
const CHANNEL = '<|channel|>';
const START = '<|start|>assistant';

interface Header {
  readonly start: number;
  readonly end: number;
  readonly channel: string | undefined;
  readonly recipient: string;
}

function stickyAt(pattern: RegExp, text: string, position: number): string | undefined {
  pattern.lastIndex = position;
  return pattern.exec(text)?.[0];
}

/** The start of the header whose `to=` is at `to`, reading back no further than `floor`. */
function headerStart(text: string, to: number, floor: number): { start: number; channel: string | undefined } {
  let start = to;
  while (start > floor && (text[start - 1] === ' ' || text[start - 1] === '\t')) start -= 1;
  let channel: string | undefined;
  let word = start;
  while (word > floor && /\w/.test(text[word - 1] as string)) word -= 1;
  if (word < start && word - CHANNEL.length >= floor && text.startsWith(CHANNEL, word - CHANNEL.length)) {
    channel = text.slice(word, start);
    start = word - CHANNEL.length;
  }
  if (start - START.length >= floor && text.startsWith(START, start - START.length)) start -= START.length;
  return { start, channel };
}

/** The next header at or after `from` (one pass over the `to=` occurrences), or undefined. */
function nextHeader(text: string, from: number): Header | undefined {
  // A failed `to=` fails for every later `to=` inside the same recipient run (the rest is read the same), so the
  // search resumes after the run: each character is read a bounded number of times.
  for (let to = text.indexOf('to=', from); to >= 0;) {
    const header = headerAt(text, to, from);
    if (typeof header === 'object') return header;
    to = text.indexOf('to=', header);
  }
  return undefined;
}

/** The header whose `to=` is at `to`, or where the search for the next `to=` resumes. */
function headerAt(text: string, to: number, from: number): Header | number {
  let position = to + 3;
  const recipient = stickyAt(RECIPIENT, text, position);
  if (recipient === undefined) return to + 1;
  position += recipient.length;
  const fail = position;
  position += (stickyAt(BLANKS, text, position) ?? '').length;
  let after: string | undefined;
  if (text.startsWith(CHANNEL, position)) {
    after = stickyAt(WORD, text, position + CHANNEL.length);
    if (after === undefined) return fail;
    position += CHANNEL.length + after.length;
  }
  position += (stickyAt(BLANKS, text, position) ?? '').length;
  if (text.startsWith('<|constrain|>', position)) position += '<|constrain|>'.length;
  position += (stickyAt(BLANKS, text, position) ?? '').length;
  position += (stickyAt(CONTENT_TYPE, text, position) ?? '').length;
  position += (stickyAt(BLANKS, text, position) ?? '').length;
  if (!text.startsWith('<|message|>', position)) return fail;
  const { start, channel } = headerStart(text, to, from);
  return { start, end: position + '<|message|>'.length, channel: channel ?? after, recipient };
}

const CALL = '<|call|>';
const NAMESPACE = 'functions.';

export const gptOssDialect: TextDialect = {
  name: 'gpt-oss',
  find(text) {
    const blocks: DialectBlock[] = [];
    let from = 0;
    for (let header = nextHeader(text, from); header; header = nextHeader(text, from)) {
      from = header.end;
      const { channel, recipient, start } = header;
      if (channel === undefined) continue; // not a harmony header: an assistant message always names its channel
      const name = recipient.startsWith(NAMESPACE) ? recipient.slice(NAMESPACE.length) : recipient;
      const body = skipBlank(text, header.end);
      const refuse = (reason: string, end: number) => {
        blocks.push({ start, end, calls: [], rejected: [{ name, reason, text: text.slice(start, end) }] });
        from = end;
      };
      const callEnd = () => {
        const close = text.indexOf(CALL, body);
        return close < 0 ? text.length : close + CALL.length;
      };
      if (body >= text.length) {
        refuse('the call is cut off before its arguments', text.length);
        continue;
      }
      if (channel === 'analysis') {
        refuse('the call is addressed from the analysis channel, which is reasoning', callEnd());
        continue;
      }
      if (text.startsWith(CALL, body)) {
        // an empty message: a call without arguments
        blocks.push({ start, end: body + CALL.length, calls: [{ name, arguments: {} }], rejected: [] });
        from = body + CALL.length;
        continue;
      }
      if (text[body] !== '{') {
        refuse('the arguments are not a JSON object', callEnd());
        continue;
      }
      const read = readJsonValue(text, body);
      if (!read.ok) {
        refuse(read.reason, read.cutOff ? text.length : callEnd());
        continue;
      }
      if (!isPlainObject(read.value)) {
        refuse('the arguments are not a JSON object', callEnd());
        continue;
      }
      const after = skipBlank(text, read.end);
      if (text.startsWith(CALL, after) || after >= text.length) {
        const end = text.startsWith(CALL, after) ? after + CALL.length : read.end;
        blocks.push({ start, end, calls: [{ name, arguments: read.value }], rejected: [] });
        from = end;
        continue;
      }
      refuse(`unexpected text after the arguments, before ${CALL}`, callEnd());
    }
    return blocks;
  },
};
