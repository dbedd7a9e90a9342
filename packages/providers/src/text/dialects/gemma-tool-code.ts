/**
 * Gemma 2/3 prompted function calling: a ```` ```tool_code ```` fence holding Python calls, one per line, optionally
 * as `print(get_weather(city="Paris"))` (Google's Gemma function-calling guide; the `tool_code` / `tool_output`
 * convention; the calls may also be Gemma 3's prompted list, `[get_weather(city="Paris")]`, from Google's "Function
 * calling with Gemma" guide). Values are Python literals. A fence that never closes is a cut-off call.
 */
import type { DialectBlock, TextDialect } from '../dialect';
import { fencedBlocks } from '../read/fences';
import { readPythonCall, readPythonCalls } from '../read/python-calls';
import { skipBlank } from '../read/tags';

const PRINT = /print\s*\(/y;

export const gemmaToolCodeDialect: TextDialect = {
  name: 'gemma-tool-code',
  find(text) {
    const blocks: DialectBlock[] = [];
    for (const fence of fencedBlocks(text, 'tool_code')) {
      const body = text.slice(0, fence.bodyEnd);
      const source = text.slice(fence.start, fence.end);
      if (!fence.closed) {
        blocks.push({
          start: fence.start,
          end: fence.end,
          calls: [],
          rejected: [{ reason: 'the tool_code block is cut off before its closing fence', text: source }],
        });
        continue;
      }
      const at = skipBlank(body, fence.bodyStart);
      PRINT.lastIndex = at;
      if (PRINT.test(body)) {
        const read = readPythonCall(body, skipBlank(body, PRINT.lastIndex));
        const close = read.ok ? skipBlank(body, read.end) : -1;
        if (read.ok && body[close] === ')' && skipBlank(body, close + 1) >= fence.bodyEnd)
          blocks.push({ start: fence.start, end: fence.end, calls: [read.call], rejected: [] });
        else
          blocks.push({
            start: fence.start,
            end: fence.end,
            calls: [],
            rejected: [
              {
                ...(!read.ok && read.name ? { name: read.name } : {}),
                reason: read.ok ? 'unexpected text after the call' : read.reason,
                text: source,
              },
            ],
          });
        continue;
      }
      // Gemma 3's prompted list form (`[get_weather(city="Paris")]`) inside the fence reads the same.
      const read =
        body[at] === '[' ? readPythonCalls(body, at + 1, ']') : readPythonCalls(body, fence.bodyStart, undefined);
      const rest = skipBlank(body, read.end) < fence.bodyEnd;
      blocks.push({
        start: fence.start,
        end: fence.end,
        calls: rest ? [] : read.calls,
        rejected: rest
          ? [...read.rejected, { reason: 'the tool_code block holds text that is not a call', text: source }]
          : read.rejected,
      });
    }
    return blocks;
  },
};
