/**
 * What a model writes in each text tool-call dialect (per its chat template), for the BFCL read-back test: each
 * dialect's renderer lives in `./<dialect>.ts` and is registered here (a dialect with two written forms, such as
 * Mistral's list and named forms, has one entry per form).
 */
import * as apertus from './apertus';
import * as commandR7b from './command-r7b';
import * as deepseekV3 from './deepseek-v3';
import * as deepseekV31 from './deepseek-v3.1';
import * as deepseekV32 from './deepseek-v3.2';
import * as functionGemma from './functiongemma';
import * as glm45 from './glm-4.5';
import * as gptOss from './gpt-oss';
import * as hunyuan from './hunyuan';
import * as internlm2 from './internlm2';
import * as kimiK2 from './kimi-k2';
import * as longcat from './longcat';
import * as olmo3 from './olmo3';
import * as step3 from './step3';
import * as claudeXml from './claude-xml';
import * as commandR from './command-r';
import * as functionary from './functionary';
import * as gemmaToolCode from './gemma-tool-code';
import * as granite from './granite';
import * as hermes from './hermes';
import * as jamba from './jamba';
import * as json from './json';
import * as llama3Json from './llama3-json';
import * as minimax from './minimax';
import * as mistral from './mistral';
import * as openaiContent from './openai-content';
import * as phi4Mini from './phi4-mini';
import * as pythonic from './pythonic';
import * as qwen3Coder from './qwen3-coder';
import * as react from './react';
import * as seedOss from './seed-oss';
import * as xlam from './xlam';

/** One call to render. */
export interface RenderCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

export interface RenderOptions {
  /** prose the model writes before the calls (where the dialect allows prose) */
  readonly prose?: string;
}

export interface DialectRenderer {
  /** the `TextDialect.name` this renders */
  readonly dialect: string;
  /** a label for the form, when a dialect has several */
  readonly form?: string;
  /** XML-style: values are raw text typed back by the schema (a string "None" cannot be written) */
  readonly rawValues?: boolean;
  render(calls: readonly RenderCall[], options: RenderOptions): string;
}

export const RENDERERS: readonly DialectRenderer[] = [
  { dialect: 'seed-oss', render: seedOss.render, rawValues: true },
  { dialect: 'claude-xml', render: claudeXml.render, rawValues: true },
  { dialect: 'minimax', render: minimax.render, rawValues: true },
  { dialect: 'qwen3-coder', render: qwen3Coder.render, rawValues: true },
  { dialect: 'hermes', render: hermes.render },
  { dialect: 'granite', render: granite.render },
  { dialect: 'mistral', render: mistral.render },
  { dialect: 'mistral', form: 'list', render: mistral.renderList },
  { dialect: 'llama3-json', render: llama3Json.render },
  { dialect: 'jamba', render: jamba.render },
  { dialect: 'phi4-mini', render: phi4Mini.render },
  { dialect: 'functionary', render: functionary.render },
  { dialect: 'gemma-tool-code', render: gemmaToolCode.render },
  { dialect: 'gemma-tool-code', form: 'print', render: gemmaToolCode.renderPrint },
  { dialect: 'command-r', render: commandR.render },
  { dialect: 'command-r', form: 'multi-step', render: commandR.renderMultiStep },
  { dialect: 'openai-content', render: openaiContent.render },
  { dialect: 'react', render: react.render },
  { dialect: 'react', form: 'llamaindex', render: react.renderLlamaIndex },
  { dialect: 'react', form: 'langchain-json', render: react.renderLangChainJson },
  { dialect: 'xlam', render: xlam.render },
  { dialect: 'pythonic', render: pythonic.render },
  { dialect: 'json', render: json.render },
  { dialect: 'json', form: 'parameters', render: json.renderParameters },
  { dialect: 'apertus', render: apertus.render },
  { dialect: 'command-r7b', render: commandR7b.render },
  { dialect: 'deepseek-v3', render: deepseekV3.render },
  { dialect: 'deepseek-v3.1', render: deepseekV31.render },
  { dialect: 'deepseek-v3.2', render: deepseekV32.render },
  { dialect: 'functiongemma', render: functionGemma.render },
  { dialect: 'glm-4.5', render: glm45.render, rawValues: true },
  { dialect: 'gpt-oss', render: gptOss.render },
  { dialect: 'hunyuan', render: hunyuan.render, rawValues: true },
  { dialect: 'internlm2', render: internlm2.render },
  { dialect: 'kimi-k2', render: kimiK2.render },
  { dialect: 'longcat', render: longcat.render },
  { dialect: 'olmo3', render: olmo3.render },
  { dialect: 'step3', render: step3.render, rawValues: true },
];
