/**
 * Every text tool-call dialect, in detection order: dialects with specific markers first, marker-less ones (plain
 * JSON, pythonic, ReAct) last. Each lives in its own file and exports one `TextDialect`. Where two dialects would
 * read the same region, the earlier one keeps it.
 */
import type { TextDialect } from '../dialect';
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
  seedOssDialect,
  claudeXmlDialect,
  minimaxDialect,
  qwen3CoderDialect,
  hermesDialect,
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
