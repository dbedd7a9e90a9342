/**
 * Marker-less JSON candidates (a bare call object, an xLAM list): the value at a position, or, when the text ends
 * inside it and it names a known tool, a block holding the cut-off call. A candidate that neither reads nor names a
 * known tool is not this dialect's: the caller skips it.
 */
import type { DialectBlock, DialectScope } from '../dialect';
import { nameIn, nameMatch } from './json-calls';
import { readJsonValue } from './json';

/**
 * The name a cut-off candidate names: the first name key from `start` to the end of the text. The last search of a
 * scan is kept, so a run of cut-off candidates (openers that never close) searches the text once, not once each.
 */
type NameSearch = { readonly from: number; readonly at: number; readonly name: string | undefined };

function nameFrom(text: string, start: number, last: { search?: NameSearch }): string | undefined {
  const known = last.search;
  if (known && known.from <= start && (known.at < 0 || known.at >= start)) return known.name;
  const found = nameMatch(text, start);
  last.search = { from: start, at: found?.index ?? -1, name: found?.name };
  return found?.name;
}

/** The block of a cut-off candidate (the text ends inside it) that names a known tool, or undefined. */
function cutOffCall(
  text: string,
  start: number,
  read: { readonly reason: string; readonly end: number },
  scope: DialectScope,
  names: { search?: NameSearch },
): DialectBlock | undefined {
  const source = text.slice(start, read.end);
  const name = read.end === text.length ? nameFrom(text, start, names) : nameIn(source);
  if (name === undefined || !scope.isToolName(name)) return undefined;
  return { start, end: text.length, calls: [], rejected: [{ name, reason: read.reason, text: source }] };
}

/** A candidate that read as a value: where it starts and ends (its text is `text.slice(start, end)`). */
export interface CandidateValue {
  readonly value: unknown;
  readonly start: number;
  readonly end: number;
}

/**
 * The blocks of a marker-less dialect: each match of `pattern` (a global expression) read as a candidate; `toBlock`
 * turns a value into the dialect's block, or undefined when it is not one. A cut-off call naming a known tool ends
 * the scan (the text ends inside it).
 */
export function findCandidates(
  text: string,
  pattern: RegExp,
  scope: DialectScope,
  toBlock: (candidate: CandidateValue) => DialectBlock | undefined,
): DialectBlock[] {
  const blocks: DialectBlock[] = [];
  const names: { search?: NameSearch } = {};
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const claimed = scope.claimedEnd(match.index);
    if (claimed > match.index) {
      pattern.lastIndex = claimed; // inside an earlier dialect's block
      continue;
    }
    const read = readJsonValue(text, match.index);
    if (!read.ok) {
      if (!read.cutOff) continue;
      const block = cutOffCall(text, match.index, read, scope, names);
      if (!block) continue;
      blocks.push(block);
      break;
    }
    const block = toBlock({ value: read.value, start: match.index, end: read.end });
    if (!block) continue;
    blocks.push(block);
    pattern.lastIndex = read.end;
  }
  return blocks;
}
