/**
 * Call lists that follow a marker (`<|tool_call|>[...]`, `functools[...]`, `<tool_calls>[...]</tool_calls>`,
 * `[TOOL_CALLS][...]`): each marker, then one JSON list of call objects (or one call object), then an optional
 * closing marker. A list that never closes is a cut-off call; a marker followed by no list is left alone.
 */
import type { DialectBlock } from '../dialect';
import { NAME_AND_ARGUMENTS, readCallList, type CallKeys } from './json-calls';
import { skipBlank } from './tags';

export interface MarkedListSyntax {
  readonly marker: string;
  /** a closing marker that may follow the list (required when `closeRequired`) */
  readonly close?: string;
  readonly keys?: CallKeys;
}

export function findMarkedLists(text: string, syntax: MarkedListSyntax): DialectBlock[] {
  const blocks: DialectBlock[] = [];
  for (let start = text.indexOf(syntax.marker); start >= 0;) {
    const listStart = skipBlank(text, start + syntax.marker.length);
    const opener = text[listStart];
    if (listStart >= text.length) {
      blocks.push({
        start,
        end: text.length,
        calls: [],
        rejected: [{ reason: `the call is cut off after ${syntax.marker}`, text: text.slice(start) }],
      });
      break;
    }
    if (opener !== '[' && opener !== '{') {
      start = text.indexOf(syntax.marker, start + syntax.marker.length);
      continue;
    }
    const read = readCallList(text, listStart, syntax.keys ?? NAME_AND_ARGUMENTS);
    let end = read.end;
    if (syntax.close !== undefined && !read.cutOff) {
      const after = skipBlank(text, end);
      if (text.startsWith(syntax.close, after)) end = after + syntax.close.length;
    }
    blocks.push({ start, end, calls: read.calls, rejected: read.rejected });
    start = text.indexOf(syntax.marker, end);
  }
  return blocks;
}
