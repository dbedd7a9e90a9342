import { stringEnd } from './json-text-rules';

/**
 * One linear, string-aware pass over arguments text, done before anything parses or repairs it.
 * It finds what a repair library must never see: cut-off text (it would be "completed"), nesting deeper
 * than the limit (recursive parsers overflow the stack), and several top-level objects in a row.
 * It understands both JSON strings and Python-style single-quoted strings.
 */
export interface JsonTextScan {
  /** Deepest bracket nesting seen. */
  readonly maxDepth: number;
  /** Still inside a string, or brackets left open, at the end of the text. */
  readonly truncated: boolean;
  /** `[start, end)` of the first {@link MAX_RECORDED_SPANS} balanced top-level `{...}` or `[...]`. */
  readonly topLevelSpans: ReadonlyArray<readonly [number, number]>;
  /** How many balanced top-level spans there are (recorded or not). */
  readonly spanCount: number;
  /** Text outside the top-level spans that is not white space. */
  readonly hasTextOutsideSpans: boolean;
  /** A closing bracket that matches nothing. */
  readonly unbalanced: boolean;
}

/** Spans recorded per scan: callers need to know whether there are none, one or several. */
export const MAX_RECORDED_SPANS = 16;

export function scanJsonText(text: string, stopAtDepth = Infinity): JsonTextScan {
  let depth = 0;
  let maxDepth = 0;
  let cutOff = false;
  let spanStart = -1;
  let hasTextOutsideSpans = false;
  let unbalanced = false;
  const spans: Array<readonly [number, number]> = [];
  let spanCount = 0;
  const length = text.length;
  for (let index = 0; index < length; index++) {
    const char = text.charCodeAt(index);
    switch (char) {
      case 34 /* " */:
      case 39 /* ' */: {
        // An apostrophe outside any bracket is prose ("don't"), not a string opener.
        if (depth === 0 && char === 39) {
          hasTextOutsideSpans = true;
          break;
        }
        if (depth === 0) hasTextOutsideSpans = true;
        const end = stringEnd(text, index, char);
        if (end === -1) {
          cutOff = true;
          index = length;
          break;
        }
        index = end;
        break;
      }
      case 123 /* { */:
      case 91 /* [ */:
        if (depth === 0) spanStart = index;
        depth++;
        if (depth > maxDepth) {
          maxDepth = depth;
          if (maxDepth > stopAtDepth) {
            return { maxDepth, truncated: false, topLevelSpans: spans, spanCount, hasTextOutsideSpans, unbalanced };
          }
        }
        break;
      case 125 /* } */:
      case 93 /* ] */:
        if (depth === 0) {
          unbalanced = true;
          break;
        }
        depth--;
        if (depth === 0 && spanCount++ < MAX_RECORDED_SPANS) spans.push([spanStart, index + 1]);
        break;
      case 32:
      case 9:
      case 10:
      case 13:
        break;
      default:
        if (depth === 0) hasTextOutsideSpans = true;
    }
  }
  return {
    maxDepth,
    truncated: depth > 0 || cutOff,
    topLevelSpans: spans,
    spanCount,
    hasTextOutsideSpans,
    unbalanced,
  };
}
