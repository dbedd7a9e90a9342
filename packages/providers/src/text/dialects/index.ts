/**
 * Every text tool-call dialect, in detection order: dialects with specific markers first, marker-less ones (plain
 * JSON, pythonic, ReAct) last. Each lives in its own file and exports one `TextDialect`. Where two dialects would
 * read the same region, the earlier one keeps it.
 */
import type { TextDialect } from '../dialect';
import { apertusDialect } from './apertus';
import { commandR7bDialect } from './command-r7b';
import { deepseekV3Dialect } from './deepseek-v3';
import { deepseekV31Dialect } from './deepseek-v3.1';
import { deepseekV32Dialect } from './deepseek-v3.2';
import { functionGemmaDialect } from './functiongemma';
import { glm45Dialect } from './glm-4.5';
import { gptOssDialect } from './gpt-oss';
import { hunyuanDialect } from './hunyuan';
import { internlm2Dialect } from './internlm2';
import { kimiK2Dialect } from './kimi-k2';
import { longcatDialect } from './longcat';
import { olmo3Dialect } from './olmo3';
import { step3Dialect } from './step3';
import { claudeXmlDialect } from './claude-xml';
import { commandRDialect } from './command-r';
import { functionaryDialect } from './functionary';
import { gemmaToolCodeDialect } from './gemma-tool-code';
import { graniteDialect } from './granite';
import { hermesDialect } from './hermes';
import { jambaDialect } from './jamba';
import { jsonDialect } from './json';
import { llama3JsonDialect } from './llama3-json';
import { minimaxDialect } from './minimax';
import { mistralDialect } from './mistral';
import { openaiContentDialect } from './openai-content';
import { phi4MiniDialect } from './phi4-mini';
import { pythonicDialect } from './pythonic';
import { qwen3CoderDialect } from './qwen3-coder';
import { reactDialect } from './react';
import { seedOssDialect } from './seed-oss';
import { xlamDialect } from './xlam';

export const DIALECTS: readonly TextDialect[] = [
  // specific markers
  deepseekV3Dialect,
  deepseekV31Dialect,
  deepseekV32Dialect,
  kimiK2Dialect,
  step3Dialect,
  gptOssDialect,
  hunyuanDialect,
  seedOssDialect,
  claudeXmlDialect,
  minimaxDialect,
  qwen3CoderDialect,
  hermesDialect,
  glm45Dialect,
  longcatDialect,
  internlm2Dialect,
  commandR7bDialect,
  apertusDialect,
  functionGemmaDialect,
  olmo3Dialect,
  graniteDialect,
  mistralDialect,
  llama3JsonDialect,
  jambaDialect,
  phi4MiniDialect,
  functionaryDialect,
  gemmaToolCodeDialect,
  commandRDialect,
  openaiContentDialect,
  // marker-less: only calls naming a known tool
  reactDialect,
  xlamDialect,
  pythonicDialect,
  jsonDialect,
];
