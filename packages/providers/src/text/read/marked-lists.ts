/**
 * Call lists that follow a marker (`<|tool_call|>[...]`, `functools[...]`, `<tool_calls>[...]</tool_calls>`,
 * `<|START_ACTION|>[...]<|END_ACTION|>`, `<|action_start|><|plugin|>{...}<|action_end|>`): each marker, then one JSON
 * list of call objects (or one call object), then an optional closing marker. A list that never closes is a cut-off
 * call; a marker followed by no list is left alone.
 */
import type { DialectBlock } from '../dialect';
import { NAME_AND_ARGUMENTS, readCallList, type CallItemSyntax } from './json-calls';
import { skipBlank } from './tags';

export interface MarkedListSyntax {
  /** the opening marker: a string, or a global expression for a marker with spelling variants */
  readonly marker: string | RegExp;
  /** a closing marker that may follow the list */
  readonly close?: string;
  /** how each item spells a call (default `{"name", "arguments" | "parameters"}`) */
  readonly items?: CallItemSyntax;
}

/** The next marker at or after `from`: where it starts and ends. */
function nextMarker(text: string, marker: string | RegExp, from: number): { start: number; end: number } | undefined {
  if (typeof marker === 'string') {
    const start = text.indexOf(marker, from);
    return start < 0 ? undefined : { start, end: start + marker.length };
  }
  marker.lastIndex = from;
  const match = marker.exec(text);
  return match ? { start: match.index, end: match.index + match[0].length } : undefined;
}

export function findMarkedLists(text: string, syntax: MarkedListSyntax): DialectBlock[] {
  const blocks: DialectBlock[] = [];
  for (let marker = nextMarker(text, syntax.marker, 0); marker;) {
    const { start } = marker;
    const listStart = skipBlank(text, marker.end);
    const opener = text[listStart];
    if (listStart >= text.length) {
      blocks.push({
        start,
        end: text.length,
        calls: [],
        rejected: [{ reason: `the call is cut off after ${text.slice(start, marker.end)}`, text: text.slice(start) }],
      });
      break;
    }
    if (opener !== '[' && opener !== '{') {
      marker = nextMarker(text, syntax.marker, marker.end);
      continue;
    }
    const read = readCallList(text, listStart, syntax.items ?? NAME_AND_ARGUMENTS);
    let end = read.end;
    if (syntax.close !== undefined && !read.cutOff) {
      const after = skipBlank(text, end);
      if (text.startsWith(syntax.close, after)) end = after + syntax.close.length;
    }
    blocks.push({ start, end, calls: read.calls, rejected: read.rejected });
    marker = nextMarker(text, syntax.marker, end);
  }
  return blocks;
}
