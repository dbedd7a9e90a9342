import { ToolRegistry } from '../../src/registry/tool-registry';
import {
  bfclToJsonSchema,
  loadBfclEntries,
  loadBfclGroundTruth,
  type BfclFunction,
  type BfclGroundTruthFile,
} from './bfcl';

/**
 * The tool-search evaluation of issue 30: a registry of every distinct function of BFCL's simple, multiple, live
 * simple and live multiple sets, and each of their single-call questions as a query whose answer is the function its
 * ground truth calls. The held-out split (the parallel, parallel-multiple, Java and JavaScript sets, never the
 * evaluated questions) is the one the ranking's few choices were compared on (docs/tool-search.md).
 */
export const TOOL_SEARCH_EVALUATED_FILES = [
  'BFCL_v4_simple_python.json',
  'BFCL_v4_multiple.json',
  'BFCL_v4_live_simple.json',
  'BFCL_v4_live_multiple.json',
] as const satisfies readonly BfclGroundTruthFile[];

export const TOOL_SEARCH_HELD_OUT_FILES = [
  'BFCL_v4_parallel.json',
  'BFCL_v4_parallel_multiple.json',
  'BFCL_v4_live_parallel.json',
  'BFCL_v4_live_parallel_multiple.json',
  'BFCL_v4_simple_java.json',
  'BFCL_v4_simple_javascript.json',
] as const satisfies readonly BfclGroundTruthFile[];

export interface ToolSearchQuestion {
  readonly id: string;
  /** The user's messages of the question, joined by new lines. */
  readonly query: string;
  /** The function the ground truth calls. */
  readonly expected: string;
}

export interface ToolSearchCorpus {
  readonly registry: ToolRegistry;
  readonly questions: readonly ToolSearchQuestion[];
  /** How many distinct definitions (name, description and parameters) the sets hold; the registry keeps one per name. */
  readonly distinctDefinitions: number;
}

/**
 * The corpus of `files`. A name offered with different definitions in different questions (324 of the 1,096 names
 * of the evaluated sets) is registered once, with the definition most questions offer (the first offered among
 * equals), as an application registers one definition per tool. A question whose ground truth holds several calls
 * gives one query per distinct function called.
 */
export function loadToolSearchCorpus(files: readonly BfclGroundTruthFile[]): ToolSearchCorpus {
  const offered = new Map<string, Map<string, { readonly definition: BfclFunction; count: number }>>();
  const questions: ToolSearchQuestion[] = [];
  for (const file of files) {
    const entries = loadBfclEntries(file);
    const truths = loadBfclGroundTruth(file);
    entries.forEach((entry, position) => {
      const truth = truths[position];
      if (truth?.id !== entry.id) throw new Error(`${file}: ground truth ${position} is not for ${entry.id}`);
      for (const definition of entry.function) {
        const variants = offered.get(definition.name) ?? new Map();
        offered.set(definition.name, variants);
        const key = JSON.stringify(definition);
        const variant = variants.get(key);
        if (variant === undefined) variants.set(key, { definition, count: 1 });
        else variant.count++;
      }
      const query = entry.question
        .flat()
        .filter((message) => message.role === 'user')
        .map((message) => message.content)
        .join('\n');
      const called = new Set(truth.ground_truth.flatMap((call) => Object.keys(call)));
      for (const expected of called) questions.push({ id: entry.id, query, expected });
    });
  }
  const registry = new ToolRegistry({ onDuplicate: 'error' });
  let distinctDefinitions = 0;
  for (const variants of offered.values()) {
    distinctDefinitions += variants.size;
    let chosen: { readonly definition: BfclFunction; count: number } | undefined;
    for (const variant of variants.values()) if (chosen === undefined || variant.count > chosen.count) chosen = variant;
    const { name, description, parameters } = chosen!.definition;
    registry.registerJsonSchemaTool({ name, description, parameters: bfclToJsonSchema(parameters) }, () => undefined);
  }
  return { registry, questions, distinctDefinitions };
}

export interface SearchAccuracy {
  readonly questions: number;
  readonly first: number;
  readonly topFive: number;
  /** Questions whose expected tool is not in the top five, with what came first. */
  readonly misses: readonly { readonly id: string; readonly expected: string; readonly found: readonly string[] }[];
}

/** How often the expected tool comes first and within the first five. */
export function measureSearchAccuracy(corpus: ToolSearchCorpus): SearchAccuracy {
  let first = 0;
  let topFive = 0;
  const misses: { id: string; expected: string; found: string[] }[] = [];
  for (const question of corpus.questions) {
    const found = corpus.registry.search(question.query, { limit: 5 }).map((result) => result.name);
    if (found[0] === question.expected) first++;
    if (found.includes(question.expected)) topFive++;
    else misses.push({ id: question.id, expected: question.expected, found });
  }
  return { questions: corpus.questions.length, first, topFive, misses };
}

/** How often the expected tool comes first and within the first five, with a hybrid search (async: it embeds). */
export async function measureHybridAccuracy(
  corpus: ToolSearchCorpus,
  search: { search(query: string, options: { limit: number }): Promise<readonly { name: string }[]> },
): Promise<Omit<SearchAccuracy, 'misses'>> {
  let first = 0;
  let topFive = 0;
  for (const question of corpus.questions) {
    const found = (await search.search(question.query, { limit: 5 })).map((result) => result.name);
    if (found[0] === question.expected) first++;
    if (found.includes(question.expected)) topFive++;
  }
  return { questions: corpus.questions.length, first, topFive };
}

/**
 * A deterministic embedding with no model: each word's character trigrams (`#we`, `wea`, ..., `er#`), hashed (FNV-1a)
 * into `dimensions` buckets, counted once per text and word. It knows spelling, not meaning: it stands in for a
 * model in the BFCL measurement of the fusion (docs/tool-search.md), where no model can be downloaded.
 */
export function trigramEmbedding(dimensions = 512): (texts: string[]) => number[][] {
  return (texts) =>
    texts.map((text) => {
      const vector = new Array<number>(dimensions).fill(0);
      for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
        const padded = `#${word}#`;
        for (let index = 0; index + 3 <= padded.length; index++) {
          let hash = 0x811c9dc5;
          for (const character of padded.slice(index, index + 3)) {
            hash ^= character.codePointAt(0)!;
            hash = Math.imul(hash, 0x01000193) >>> 0;
          }
          vector[hash % dimensions]! += 1;
        }
      }
      return vector;
    });
}
