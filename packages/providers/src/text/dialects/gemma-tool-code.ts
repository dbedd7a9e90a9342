/**
 * Gemma 2/3 prompted function calling: a `tool_code` block holding Python calls (Google's Gemma function-calling
 * prompt, "it should be wrapped with ```tool_code```", with `tool_output` for the results). The grammar is the
 * reference reader's, from Google's Gemma 3 function-calling example (Philipp Schmid, "Google Gemma 3 Function
 * Calling Example"): the block is `` ```tool_code\s*(.*?)\s*``` `` (so the call may sit on the opener's line, and the
 * block ends at the first three backticks), and its body is evaluated as one Python expression. The expressions read
 * here are those whose only effect is calling tools: a call, `print(call, ...)`, a list `[call, ...]`, a tuple
 * `(call, ...)` or `call, call`, with comments; calls on consecutive lines (the one-call-per-line form) read the
 * same. Values are Python literals. A block that never closes is a cut-off call.
 */
import { refusal, type DialectBlock, type DialectCall, type TextDialect } from '../dialect';
import { readPythonCall, readPythonCalls, type PythonListRead } from '../read/python-calls';
import { skipBlank } from '../read/tags';

// The reference's `\s*` after the language: a blank (or line break) must end the word, so ```tool_codex is no opener.
const OPENER = /```tool_code(?=\s)/g;
const PRINT = /print[ \t]*\(/y;
const COMMENT = /#[^\n]*/y;

type Rejection = DialectBlock['rejected'][number];

/** Blanks and `#` comments from `position`. */
function skipTrivia(body: string, position: number): number {
  let at = skipBlank(body, position);
  for (;;) {
    COMMENT.lastIndex = at;
    if (!COMMENT.test(body)) return at;
    at = skipBlank(body, COMMENT.lastIndex);
  }
}

/**
 * The statements of a block's body. All or nothing, as for the reference's `eval`, which parses the whole body before
 * it runs any of it: one statement that is not a call leaves the block's calls unread (and reported).
 */
function readBody(body: string): { calls: DialectCall[]; rejected: Rejection[] } {
  const calls: DialectCall[] = [];
  let position = skipTrivia(body, 0);
  while (position < body.length) {
    let read: PythonListRead;
    PRINT.lastIndex = position;
    if (PRINT.test(body)) read = readPythonCalls(body, PRINT.lastIndex, ')');
    else if (body[position] === '[') read = readPythonCalls(body, position + 1, ']');
    else if (body[position] === '(') read = readPythonCalls(body, position + 1, ')');
    else {
      const one = readPythonCall(body, position);
      read = one.ok
        ? { calls: [one.call], rejected: [], end: one.end }
        : {
            calls: [],
            rejected: [refusal(one.name, one.reason, body.slice(position, Math.max(one.end, position + 1)))],
            end: one.end,
          };
    }
    if (read.rejected.length > 0) return { calls: [], rejected: read.rejected };
    calls.push(...read.calls);
    position = skipTrivia(body, read.end);
    // `call, call` is a tuple; a call on the next line is the next statement.
    if (body[position] === ',') position = skipTrivia(body, position + 1);
  }
  return { calls, rejected: [] };
}

export const gemmaToolCodeDialect: TextDialect = {
  name: 'gemma-tool-code',
  find(text) {
    const blocks: DialectBlock[] = [];
    OPENER.lastIndex = 0;
    for (let match = OPENER.exec(text); match; match = OPENER.exec(text)) {
      const start = match.index;
      const bodyStart = OPENER.lastIndex;
      const close = text.indexOf('```', bodyStart);
      if (close < 0) {
        blocks.push({
          start,
          end: text.length,
          calls: [],
          rejected: [{ reason: 'the tool_code block is cut off before its closing fence', text: text.slice(start) }],
        });
        break;
      }
      const end = close + 3;
      const read = readBody(text.slice(bodyStart, close));
      const source = text.slice(start, end);
      blocks.push({
        start,
        end,
        calls: read.calls,
        rejected:
          read.rejected.length === 0
            ? []
            : read.rejected.concat({ reason: 'the tool_code block holds text that is not a call', text: source }),
      });
      OPENER.lastIndex = end;
    }
    return blocks;
  },
};
