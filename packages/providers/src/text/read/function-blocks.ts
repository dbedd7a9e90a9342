/**
 * Blocks of `<function=NAME><parameter=KEY>VALUE</parameter></function>` calls (or another XML call syntax:
 * `<invoke name=..><parameter name=..>`) between an opening and a closing
 * marker (Qwen3-Coder's `<tool_call>`, Seed-OSS's `<seed:tool_call>`), several calls per block allowed. The closing
 * marker may be missing at the very end of the text. Closing tags left over after a block (before the next one) mean
 * the text has a second reading: the block's calls are refused.
 */
import { refusal, type DialectBlock } from '../dialect';
import { skipBlank } from './tags';
import { readXmlCall, strayClosingTag, type XmlCallSyntax } from './xml-parameters';

export const FUNCTION_SYNTAX: XmlCallSyntax = {
  functionOpen: /<function=([^<>\n]+)>/y,
  functionClose: '</function>',
  parameterOpen: /<parameter=([^<>\n]+)>/y,
  parameterClose: '</parameter>',
};

/** `<invoke name="N"><parameter name="K">V</parameter></invoke>` (Claude-style XML, MiniMax-M2). */
export const INVOKE_SYNTAX: XmlCallSyntax = {
  functionOpen: /<invoke name="([^"\n]+)">/y,
  functionClose: '</invoke>',
  parameterOpen: /<parameter name="([^"\n]+)">/y,
  parameterClose: '</parameter>',
};

/** The `<function=..>` calls of blocks between `open` and `close` markers (Qwen3-Coder, Seed-OSS). */
export function findFunctionBlocks(
  text: string,
  open: string,
  close: string,
  syntax: XmlCallSyntax = FUNCTION_SYNTAX,
): DialectBlock[] {
  const blocks: DialectBlock[] = [];
  const tags = [syntax.parameterClose, syntax.functionClose, close];
  let position = 0;
  for (;;) {
    const start = text.indexOf(open, position);
    if (start < 0) break;
    let cursor = skipBlank(text, start + open.length);
    syntax.functionOpen.lastIndex = cursor;
    if (!syntax.functionOpen.test(text)) {
      position = start + open.length;
      continue;
    }
    const block: {
      calls: DialectBlock['calls'][number][];
      rejected: { name?: string; reason: string; text: string }[];
    } = { calls: [], rejected: [] };
    let end = text.length;
    for (;;) {
      const read = readXmlCall(text, cursor, syntax);
      if (!read.ok) {
        block.rejected.push(refusal(read.name, read.reason, text.slice(start)));
        const closeAt = text.indexOf(close, read.end);
        end = closeAt < 0 ? text.length : closeAt + close.length;
        break;
      }
      block.calls.push(read.call);
      cursor = skipBlank(text, read.end);
      if (text.startsWith(close, cursor)) {
        end = cursor + close.length;
        break;
      }
      syntax.functionOpen.lastIndex = cursor;
      if (syntax.functionOpen.test(text)) continue;
      if (cursor >= text.length) {
        end = text.length; // the closing marker left out at the very end of the text
        break;
      }
      block.rejected.push(
        ...block.calls.map((call) => ({
          name: call.name,
          reason: `unexpected text after the call, before ${close}`,
          text: text.slice(start, cursor + 40),
        })),
      );
      block.calls.length = 0;
      const closeAt = text.indexOf(close, cursor);
      end = closeAt < 0 ? text.length : closeAt + close.length;
      break;
    }
    const nextOpen = text.indexOf(open, end);
    const stray = strayClosingTag(text, end, nextOpen < 0 ? text.length : nextOpen, tags);
    if (stray !== undefined && block.calls.length > 0) {
      block.rejected.push(
        ...block.calls.map((call) => ({
          name: call.name,
          reason: `a stray ${stray} follows the call, so where its values end has two readings`,
          text: text.slice(start, end),
        })),
      );
      block.calls.length = 0;
    }
    blocks.push({ start, end, calls: block.calls, rejected: block.rejected });
    position = end;
  }
  return blocks;
}
