import type { ToolDefinition } from '../types/definition';
import type { ParamSchema } from '../types/schema';
import { DEFAULT_SEARCH_LIMIT } from './search-limit';
import type { ToolSearchOptions, ToolSearchResult } from './tool-search-index';

/**
 * Turns texts into vectors: an embeddings API (OpenAI's `embeddings.create`, ...) or a local model
 * (transformers.js' feature extraction). One vector per text, in order, all of one length. It receives the tools'
 * texts once (in batches of `batchSize`, again only for a tool that changed) and the query of each search.
 */
export type EmbedTexts = (texts: string[]) => Promise<readonly ArrayLike<number>[]> | readonly ArrayLike<number>[];

/** What the lexical side of a hybrid search is: a `ToolRegistry`, or anything that lists and searches the same way. */
export interface LexicalToolSource {
  list(): ToolDefinition[];
  search(query: string, options?: ToolSearchOptions): ToolSearchResult[];
}

/** What `new EmbeddingToolSearch(registry, options)` takes. */
export interface EmbeddingToolSearchOptions {
  /** The embedding function (required). */
  readonly embed: EmbedTexts;
  /** The text of a tool that is embedded. Default {@link EmbeddingToolSearch.defaultText}: name words, title, description, parameters. */
  readonly text?: (definition: ToolDefinition) => string;
  /** How many texts one `embed` call receives at most. Default 64. */
  readonly batchSize?: number;
  /**
   * Reciprocal rank fusion's constant `k`: a tool ranked `r` (from 1) in a ranking adds `weight / (k + r)`. Default 60
   * (Cormack, Clarke and Büttcher, 2009).
   */
  readonly rrfK?: number;
  /** How much each ranking counts in the fusion. Default 1 and 1. */
  readonly weights?: { readonly lexical?: number; readonly embedding?: number };
  /** How deep each ranking is read for the fusion (the lexical search's `limit`, the embedding's best). Default 50. */
  readonly depth?: number;
}

/** One tool found by a hybrid search, best first. */
export interface HybridToolSearchResult extends ToolSearchResult {
  /** The fused score (reciprocal rank fusion): higher is better; comparable within one search only. */
  readonly score: number;
  /** The tool's place in the lexical ranking (from 1), when it was among the `depth` best. */
  readonly lexicalRank?: number;
  /** The tool's place in the embedding ranking (from 1), when it was among the `depth` best. */
  readonly embeddingRank?: number;
  /** The cosine similarity of the query's and the tool's vectors. */
  readonly similarity: number;
}

const DEFAULT_BATCH_SIZE = 64;
const DEFAULT_RRF_K = 60;
const DEFAULT_DEPTH = 50;

/**
 * Tool search with an embedding model beside the lexical one: the registry's BM25F ranking (`registry.search`) and
 * a ranking by the cosine similarity of the query's and each tool's embedding, fused by reciprocal rank (each ranking
 * read to `depth`). The lexical search finds the tool that names the query's words; the embedding finds the tool that
 * means them ("cheap headphones" for `search_products`). Each tool's text is embedded once, by the first search that
 * sees it (a replaced tool again); each search embeds its query. The default `registry.search` stays lexical: nothing
 * here is loaded unless it is used, and no model ships with toolwright (docs/tool-search.md).
 */
export class EmbeddingToolSearch {
  private readonly embed: EmbedTexts;
  private readonly text: (definition: ToolDefinition) => string;
  private readonly batchSize: number;
  private readonly rrfK: number;
  private readonly lexicalWeight: number;
  private readonly embeddingWeight: number;
  private readonly depth: number;
  /** Each definition's unit vector; a replaced tool is a new definition, so it is embedded again. */
  private readonly vectors = new WeakMap<ToolDefinition, Float64Array>();
  /** The embedding of the definitions not embedded yet, shared by the searches that wait for them. */
  private pending: Promise<void> | undefined;
  private dimensions: number | undefined;

  constructor(
    private readonly source: LexicalToolSource,
    options: EmbeddingToolSearchOptions,
  ) {
    if (typeof source?.list !== 'function' || typeof source.search !== 'function')
      throw new TypeError('EmbeddingToolSearch: the first argument must be a ToolRegistry.');
    if (typeof options?.embed !== 'function') throw new TypeError('EmbeddingToolSearch: embed must be a function.');
    this.embed = options.embed;
    this.text = options.text ?? toolEmbeddingText;
    this.batchSize = positiveInteger('batchSize', options.batchSize ?? DEFAULT_BATCH_SIZE);
    this.depth = positiveInteger('depth', options.depth ?? DEFAULT_DEPTH);
    this.rrfK = nonNegative('rrfK', options.rrfK ?? DEFAULT_RRF_K);
    this.lexicalWeight = nonNegative('weights.lexical', options.weights?.lexical ?? 1);
    this.embeddingWeight = nonNegative('weights.embedding', options.weights?.embedding ?? 1);
  }

  /** The default text of a tool that is embedded (the `text` option replaces it): its name as words, title, description and each parameter's name and description. */
  static defaultText(definition: ToolDefinition): string {
    return toolEmbeddingText(definition);
  }

  /** Embeds every registered tool not embedded yet (a search does it too; call it at startup to pay it there). */
  async warmUp(): Promise<void> {
    await this.embedMissing(this.source.list());
  }

  /**
   * The tools that best match `query`, best first (ties broken by name): the lexical and the embedding ranking fused.
   * Unlike the lexical search, a tool that shares no word with the query can be found.
   */
  async search(query: string, options: ToolSearchOptions = {}): Promise<HybridToolSearchResult[]> {
    if (typeof query !== 'string') throw new TypeError('EmbeddingToolSearch.search: the query must be a string.');
    const limit = positiveInteger('limit', options.limit ?? DEFAULT_SEARCH_LIMIT);
    // The lexical search checks `filter` (a function) with the registry's own message.
    const lexical = this.source.search(query, {
      limit: this.depth,
      ...(options.filter !== undefined ? { filter: options.filter } : {}),
    });
    const definitions = this.source.list();
    const candidates =
      options.filter === undefined
        ? definitions
        : definitions.filter((definition) => options.filter!(definition) === true);
    await this.embedMissing(definitions);
    const queryVector = query.trim() === '' ? undefined : unit(this.checked(await this.embed([query]), 1)[0]!);

    const byName = new Map<string, { definition: ToolDefinition; similarity: number; embeddingRank?: number }>();
    for (const definition of candidates) {
      const vector = this.vectors.get(definition)!;
      byName.set(definition.name, {
        definition,
        similarity: queryVector === undefined ? 0 : dot(queryVector, vector),
      });
    }
    if (queryVector !== undefined) {
      const ranked = [...byName.values()].sort((a, b) => b.similarity - a.similarity || compareNames(a, b));
      ranked.slice(0, this.depth).forEach((entry, index) => (entry.embeddingRank = index + 1));
    }
    const fused = new Map<string, HybridToolSearchResult>();
    const lexicalByName = new Map(lexical.map((result, index) => [result.name, { result, rank: index + 1 }]));
    for (const [name, entry] of byName) {
      const lexicalEntry = lexicalByName.get(name);
      if (lexicalEntry === undefined && entry.embeddingRank === undefined) continue;
      const score =
        (lexicalEntry === undefined ? 0 : this.lexicalWeight / (this.rrfK + lexicalEntry.rank)) +
        (entry.embeddingRank === undefined ? 0 : this.embeddingWeight / (this.rrfK + entry.embeddingRank));
      if (score === 0) continue;
      fused.set(name, {
        name,
        score,
        matched: lexicalEntry?.result.matched ?? [],
        ...(lexicalEntry !== undefined ? { lexicalRank: lexicalEntry.rank } : {}),
        ...(entry.embeddingRank !== undefined ? { embeddingRank: entry.embeddingRank } : {}),
        similarity: entry.similarity,
      });
    }
    return [...fused.values()]
      .sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .slice(0, limit);
  }

  private async embedMissing(definitions: readonly ToolDefinition[]): Promise<void> {
    // One embedding run at a time: a search that starts while one runs waits for it, then embeds what is still missing.
    while (this.pending !== undefined) await this.pending.catch(() => undefined);
    const missing = definitions.filter((definition) => !this.vectors.has(definition));
    if (missing.length === 0) return;
    const run = (async () => {
      for (let start = 0; start < missing.length; start += this.batchSize) {
        const batch = missing.slice(start, start + this.batchSize);
        const vectors = this.checked(await this.embed(batch.map((definition) => this.text(definition))), batch.length);
        batch.forEach((definition, index) => this.vectors.set(definition, unit(vectors[index]!)));
      }
    })();
    this.pending = run;
    try {
      await run;
    } finally {
      this.pending = undefined;
    }
  }

  /** The embedding function's answer, checked: one vector per text, numbers only, one length for every vector. */
  private checked(vectors: readonly ArrayLike<number>[], count: number): readonly ArrayLike<number>[] {
    if (!Array.isArray(vectors) || vectors.length !== count)
      throw new TypeError(
        `EmbeddingToolSearch: embed returned ${Array.isArray(vectors) ? `${vectors.length} vectors` : typeof vectors} for ${count} texts; it must return one vector per text, in order.`,
      );
    for (const vector of vectors) {
      const length = (vector as ArrayLike<number> | undefined)?.length;
      if (typeof length !== 'number' || length === 0)
        throw new TypeError(
          'EmbeddingToolSearch: embed returned something that is not a vector (an array of numbers).',
        );
      this.dimensions ??= length;
      if (length !== this.dimensions)
        throw new TypeError(
          `EmbeddingToolSearch: embed returned a vector of ${length} dimensions after vectors of ${this.dimensions}; one model must embed the tools and the queries.`,
        );
      for (let index = 0; index < length; index++)
        if (!Number.isFinite(vector[index]))
          throw new TypeError('EmbeddingToolSearch: embed returned a vector with a value that is not a finite number.');
    }
    return vectors;
  }
}

/**
 * The text of a tool that is embedded: its name as words (`get_current_weather` -> `get current weather`), title,
 * description, and each parameter's name and description (context parameters left out, as the lexical index does).
 */
export function toolEmbeddingText(definition: ToolDefinition): string {
  const lines = [identifierWords(definition.name)];
  if (definition.options.title !== undefined) lines.push(definition.options.title);
  if (definition.description !== '') lines.push(definition.description);
  const parameters: string[] = [];
  collectParameters(definition.parameters, 1, parameters);
  if (parameters.length > 0) lines.push(`Parameters: ${parameters.join('; ')}`);
  return lines.join('\n');
}

function collectParameters(schema: ParamSchema, depth: number, out: string[]): void {
  if (depth > 3) return;
  if (schema.kind === 'object') {
    for (const property of schema.properties) {
      if (property.context !== undefined) continue;
      const description = property.schema.description;
      out.push(
        description === undefined
          ? identifierWords(property.name)
          : `${identifierWords(property.name)}: ${description}`,
      );
      collectParameters(property.schema, depth + 1, out);
    }
  } else if (schema.kind === 'array') collectParameters(schema.items, depth, out);
  else if (schema.kind === 'union') for (const variant of schema.variants) collectParameters(variant, depth, out);
}

/** `getCurrentWeather`, `get_current_weather`, `weather.get` -> words separated by spaces. */
function identifierWords(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_\-./:]+/g, ' ')
    .trim();
}

function compareNames(a: { definition: ToolDefinition }, b: { definition: ToolDefinition }): number {
  return a.definition.name < b.definition.name ? -1 : a.definition.name > b.definition.name ? 1 : 0;
}

function unit(vector: ArrayLike<number>): Float64Array {
  const copy = Float64Array.from(vector);
  let norm = 0;
  for (const value of copy) norm += value * value;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let index = 0; index < copy.length; index++) copy[index]! /= norm;
  return copy;
}

function dot(a: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let index = 0; index < a.length; index++) sum += a[index]! * b[index]!;
  return sum;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(
      `EmbeddingToolSearch: ${name} must be an integer of at least 1, but received ${String(value)}.`,
    );
  return value;
}

function nonNegative(name: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw new RangeError(
      `EmbeddingToolSearch: ${name} must be a finite number of at least 0, but received ${String(value)}.`,
    );
  return value;
}
