/**
 * Calls between special-token markers (DeepSeek V3 and V3.1, Kimi K2): a section opens with `sectionOpen`; each call
 * is `callOpen`, a head naming the tool, one JSON arguments object and `callClose`; `sectionClose` ends the section.
 * Dialects sharing the markers tell their calls apart by the head (DeepSeek V3's `function<｜tool▁sep｜>NAME\n```json`
 * against V3.1's `NAME<｜tool▁sep｜>`): a section is a dialect's when its first call's head is. The arguments must be
 * complete; a call or section whose closing marker is missing at the very end of the text is still read.
 */
import { isPlainObject } from '../../shared/json-schema';
import type { DialectBlock, DialectCall } from '../dialect';
import { readJsonValue } from './json';
import { skipBlank } from './tags';

export interface TokenCallSyntax {
  readonly sectionOpen: string;
  readonly sectionClose: string;
  readonly callOpen: string;
  /** sticky: the head after `callOpen`, capturing what names the tool; the arguments follow its match */
  readonly head: RegExp;
  /** what follows the arguments object (blanks before it are skipped) */
  readonly callClose: string;
  /** the tool name a head spells (its capture), or undefined when it spells none */
  readonly name: (raw: string) => string | undefined;
  /**
   * The heads of the other dialects sharing these markers. Given, this dialect also claims the sections whose first
   * call matches none of them (cut off before the head, or unreadable) and a section the text ends in before its
   * first call, so such a section is rejected once. A marker followed by prose is left alone.
   */
  readonly others?: readonly RegExp[];
}

type Rejection = DialectBlock['rejected'][number];

function matchAt(pattern: RegExp, text: string, position: number): RegExpExecArray | null {
  pattern.lastIndex = position;
  return pattern.exec(text);
}

/** Whether the section opening at `start` is this syntax's. */
function owns(text: string, start: number, syntax: TokenCallSyntax): boolean {
  const first = skipBlank(text, start + syntax.sectionOpen.length);
  const headAt = first + syntax.callOpen.length;
  if (text.startsWith(syntax.callOpen, first) && matchAt(syntax.head, text, headAt)) return true;
  if (!syntax.others) return false;
  // Not yet a call (the text ends after the marker), or a call no sharing dialect's head reads: cut off or unreadable.
  if (!text.startsWith(syntax.callOpen, first))
    return first >= text.length || syntax.callOpen.startsWith(text.slice(first));
  return syntax.others.every((head) => !matchAt(head, text, headAt));
}

/** One call at `cursor` (where `callOpen` starts): the call and where it ends, or why it cannot be read. */
function readCall(
  text: string,
  cursor: number,
  syntax: TokenCallSyntax,
): { call: DialectCall; end: number; closed: boolean } | { rejected: Rejection; cutOff: boolean } {
  const headAt = cursor + syntax.callOpen.length;
  const source = () => text.slice(cursor, cursor + 300);
  const head = matchAt(syntax.head, text, headAt);
  if (!head) {
    const cutOff = text.indexOf(syntax.callClose, headAt) < 0;
    const reason = cutOff
      ? 'the call is cut off before its arguments'
      : 'the call does not name a tool where it should';
    return { rejected: { reason, text: source() }, cutOff };
  }
  const name = syntax.name(head[1] ?? '');
  if (name === undefined)
    return {
      rejected: { reason: `the call's head ${JSON.stringify(head[1])} does not name a tool`, text: source() },
      cutOff: false,
    };
  const argumentsAt = skipBlank(text, headAt + head[0].length);
  if (argumentsAt >= text.length)
    return { rejected: { name, reason: 'the call is cut off before its arguments', text: source() }, cutOff: true };
  if (text[argumentsAt] !== '{')
    return { rejected: { name, reason: 'the arguments are not a JSON object', text: source() }, cutOff: false };
  const read = readJsonValue(text, argumentsAt);
  if (!read.ok) return { rejected: { name, reason: read.reason, text: source() }, cutOff: read.cutOff };
  if (!isPlainObject(read.value))
    return { rejected: { name, reason: 'the arguments are not a JSON object', text: source() }, cutOff: false };
  const after = skipBlank(text, read.end);
  const call = { name, arguments: read.value };
  if (text.startsWith(syntax.callClose, after)) return { call, end: after + syntax.callClose.length, closed: true };
  if (after >= text.length) return { call, end: text.length, closed: false };
  return {
    rejected: { name, reason: `unexpected text after the arguments, before ${syntax.callClose}`, text: source() },
    cutOff: false,
  };
}

export function findTokenCalls(text: string, syntax: TokenCallSyntax): DialectBlock[] {
  const blocks: DialectBlock[] = [];
  for (let start = text.indexOf(syntax.sectionOpen); start >= 0;) {
    if (!owns(text, start, syntax)) {
      start = text.indexOf(syntax.sectionOpen, start + syntax.sectionOpen.length);
      continue;
    }
    const calls: DialectCall[] = [];
    const rejected: Rejection[] = [];
    let cursor = start + syntax.sectionOpen.length;
    let end = text.length;
    for (;;) {
      cursor = skipBlank(text, cursor);
      if (text.startsWith(syntax.sectionClose, cursor)) {
        end = cursor + syntax.sectionClose.length;
        break;
      }
      if (cursor >= text.length) {
        if (calls.length === 0)
          rejected.push({ reason: `the call is cut off after ${syntax.sectionOpen}`, text: text.slice(start) });
        break;
      }
      const read = text.startsWith(syntax.callOpen, cursor)
        ? readCall(text, cursor, syntax)
        : {
            rejected: {
              reason: `unexpected text in the section, before ${syntax.callOpen}`,
              text: text.slice(cursor, cursor + 80),
            },
            cutOff: false,
          };
      if ('rejected' in read) {
        rejected.push(read.rejected);
        const close = read.cutOff ? -1 : text.indexOf(syntax.sectionClose, cursor);
        end = close < 0 ? text.length : close + syntax.sectionClose.length;
        break;
      }
      calls.push(read.call);
      cursor = read.end;
      if (!read.closed) break;
    }
    blocks.push({ start, end, calls, rejected });
    start = text.indexOf(syntax.sectionOpen, end);
  }
  return blocks;
}
