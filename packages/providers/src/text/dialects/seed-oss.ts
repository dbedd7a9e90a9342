/**
 * Seed-OSS: `<seed:tool_call>\n<function=NAME>\n<parameter=KEY>VALUE</parameter>\n</function>\n</seed:tool_call>`
 * (ByteDance-Seed/Seed-OSS-36B-Instruct chat template; vLLM `seed_oss_tool_parser.py`). Read as Qwen3-Coder's
 * function form; its `<seed:think>` reasoning is removed before any dialect runs.
 */
import type { TextDialect } from '../dialect';
import { findFunctionBlocks } from '../read/function-blocks';

export const seedOssDialect: TextDialect = {
  name: 'seed-oss',
  find: (text) => findFunctionBlocks(text, '<seed:tool_call>', '</seed:tool_call>'),
};
