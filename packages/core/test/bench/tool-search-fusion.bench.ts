/**
 * The embedding fusion's accuracy on the BFCL registry (docs/tool-search.md): `EmbeddingToolSearch` with a
 * deterministic character-trigram embedding (no model can be downloaded here), against the lexical search alone, on
 * the held-out split and on the evaluated sets, for a few fusion settings. Run: `npm run bench:search`.
 */
import 'reflect-metadata';
import { EmbeddingToolSearch } from '../../src/search/embedding-search';
import {
  TOOL_SEARCH_EVALUATED_FILES,
  TOOL_SEARCH_HELD_OUT_FILES,
  loadToolSearchCorpus,
  measureHybridAccuracy,
  measureSearchAccuracy,
  trigramEmbedding,
  type ToolSearchCorpus,
} from '../support/bfcl-tool-search';

function percent(part: number, whole: number): string {
  return `${((100 * part) / whole).toFixed(1)} %`;
}

async function report(label: string, corpus: ToolSearchCorpus): Promise<void> {
  const lexical = measureSearchAccuracy(corpus);
  console.log(
    `${label}: ${corpus.questions.length} questions, ${corpus.registry.size} tools\n` +
      `  lexical alone: first ${percent(lexical.first, lexical.questions)}, top 5 ${percent(lexical.topFive, lexical.questions)}`,
  );
  const embed = trigramEmbedding();
  for (const [name, options] of [
    ['embedding alone (trigrams)', { weights: { lexical: 0 } }],
    ['RRF k 60, weights 1 / 1', {}],
    ['RRF k 60, weights 1 / 0.5', { weights: { embedding: 0.5 } }],
    ['RRF k 10, weights 1 / 0.5', { rrfK: 10, weights: { embedding: 0.5 } }],
  ] as const) {
    const search = new EmbeddingToolSearch(corpus.registry, { embed, ...options });
    const accuracy = await measureHybridAccuracy(corpus, search);
    console.log(
      `  ${name}: first ${percent(accuracy.first, accuracy.questions)}, top 5 ${percent(accuracy.topFive, accuracy.questions)}`,
    );
  }
}

async function main(): Promise<void> {
  await report('held-out split', loadToolSearchCorpus(TOOL_SEARCH_HELD_OUT_FILES));
  await report('evaluated sets', loadToolSearchCorpus(TOOL_SEARCH_EVALUATED_FILES));
}

void main();
