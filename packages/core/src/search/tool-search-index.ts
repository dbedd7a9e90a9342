import type { ToolDefinition } from '../types/definition';
import type { ParamSchema } from '../types/schema';
import { DEFAULT_SEARCH_LIMIT } from './search-limit';
import { searchTerm, searchTerms, searchWords, termPairs, type TermCache } from './search-terms';

/** What `ToolRegistry.search` takes besides the query. */
export interface ToolSearchOptions {
  /** How many tools to return at most (an integer from 1). Default 10. */
  readonly limit?: number;
  /** Only tools for which this returns true are ranked (e.g. by tag, permission or annotation). */
  readonly filter?: (definition: ToolDefinition) => boolean;
}

/** One tool found by `ToolRegistry.search`, best first. */
export interface ToolSearchResult {
  /** The registry name. */
  readonly name: string;
  /** The BM25F score: higher is better; comparable within one search only. */
  readonly score: number;
  /** The query's words (lowercased, in query order) that this tool's text matched. */
  readonly matched: readonly string[];
}

/** The fields of a tool that are searched, and how much a match in each counts (see docs/tool-search.md). */
const FIELD_WEIGHTS = Object.freeze({
  name: 2,
  title: 2,
  description: 1,
  parameterNames: 0.5,
  parameterDescriptions: 0.5,
});

type Field = keyof typeof FIELD_WEIGHTS;
const FIELDS = Object.keys(FIELD_WEIGHTS) as Field[];
/** Fields whose adjacent terms are also indexed as pairs (phrases): the ones written as phrases. */
const PHRASE_FIELDS: ReadonlySet<Field> = new Set(['name', 'title', 'description']);

/** BM25's term-frequency saturation and length normalization: the usual defaults (Robertson and Zaragoza, 2009). */
const K1 = 1.2;
const B = 0.75;
/** Nested parameter levels whose names and descriptions are indexed (`options[].label` is level 2). */
const MAX_PARAMETER_DEPTH = 3;

export { DEFAULT_SEARCH_LIMIT };

/** One term's postings: the tools that hold it and the precomputed BM25F contribution of the term to each. */
interface Postings {
  readonly tools: number[];
  readonly impacts: number[];
}

/**
 * An immutable BM25F index over tool definitions (Robertson, Zaragoza and Taylor, "Simple BM25 extension to multiple
 * weighted fields", 2004): each field's term frequency is length-normalized and weighted, the sum saturated once per
 * term, so a word repeated across a tool's fields does not count as many words. Every contribution is computed when
 * the index is built; a search adds up the postings of the query's distinct terms and selects the best.
 */
export class ToolSearchIndex {
  private readonly postings = new Map<string, Postings>();
  private readonly names: string[];
  /** The terms of each tool (for `matched`). */
  private readonly termsOf: ReadonlySet<string>[];
  private readonly scores: Float64Array;
  /**
   * The terms of the words of the indexed tools: a query word among them is not stemmed again. Query words are never
   * added, so the cache is bounded by the registry's own vocabulary.
   */
  private readonly terms: TermCache = new Map();

  private constructor(private readonly definitions: readonly ToolDefinition[]) {
    this.names = definitions.map((definition) => definition.name);
    this.scores = new Float64Array(definitions.length);
    const documents = definitions.map((definition) => fieldTerms(definition, this.terms));
    const averageLength = new Map<Field, number>();
    for (const field of FIELDS) {
      let total = 0;
      for (const document of documents) total += document[field].length;
      averageLength.set(field, documents.length === 0 ? 0 : total / documents.length);
    }
    const weighted = documents.map((document) => weightedFrequencies(document, averageLength));
    const documentFrequency = new Map<string, number>();
    for (const frequencies of weighted)
      for (const term of frequencies.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    const count = definitions.length;
    weighted.forEach((frequencies, tool) => {
      for (const [term, frequency] of frequencies) {
        const containing = documentFrequency.get(term)!;
        const inverseDocumentFrequency = Math.log(1 + (count - containing + 0.5) / (containing + 0.5));
        let postings = this.postings.get(term);
        if (postings === undefined) {
          postings = { tools: [], impacts: [] };
          this.postings.set(term, postings);
        }
        postings.tools.push(tool);
        postings.impacts.push((inverseDocumentFrequency * frequency) / (K1 + frequency));
      }
    });
    this.termsOf = weighted.map((frequencies) => new Set(frequencies.keys()));
  }

  /** An index of these definitions (names are expected unique, as in a registry). */
  static build(definitions: readonly ToolDefinition[]): ToolSearchIndex {
    return new ToolSearchIndex(definitions);
  }

  get size(): number {
    return this.names.length;
  }

  /** The best matches for `query`, best first; ties are broken by name. Tools that match no query term are never returned. */
  search(query: string, options: ToolSearchOptions = {}): ToolSearchResult[] {
    const limit = checkOptions(query, options);
    const words = new Map<string, string[]>();
    const queryTerms: string[] = [];
    for (const word of searchWords(query)) {
      const term = this.terms.has(word) ? this.terms.get(word) : searchTerm(word);
      if (term === undefined) continue;
      queryTerms.push(term);
      const spelled = words.get(term);
      if (spelled === undefined) words.set(term, [word]);
      else if (!spelled.includes(word)) spelled.push(word);
    }
    const distinct = new Set([...queryTerms, ...termPairs(queryTerms)]);
    const scores = this.scores;
    const touched: number[] = [];
    try {
      for (const term of distinct) {
        const postings = this.postings.get(term);
        if (postings === undefined) continue;
        const { tools, impacts } = postings;
        for (let index = 0; index < tools.length; index++) {
          const tool = tools[index]!;
          if (scores[tool] === 0) touched.push(tool);
          scores[tool]! += impacts[index]!;
        }
      }
      const best = this.best(touched, limit, options.filter);
      return best.map((tool) => ({
        name: this.names[tool]!,
        score: scores[tool]!,
        matched: this.matchedWords(tool, queryTerms, words),
      }));
    } finally {
      for (const tool of touched) scores[tool] = 0;
    }
  }

  /** The `limit` best of the scored tools (insertion into a short sorted list: `limit` is small). */
  private best(
    touched: readonly number[],
    limit: number,
    filter: ((definition: ToolDefinition) => boolean) | undefined,
  ): number[] {
    const best: number[] = [];
    for (const tool of touched) {
      if (best.length === limit && !this.ranksAbove(tool, best[best.length - 1]!)) continue;
      if (filter !== undefined && filter(this.definitions[tool]!) !== true) continue;
      let position = best.length;
      while (position > 0 && this.ranksAbove(tool, best[position - 1]!)) position--;
      best.splice(position, 0, tool);
      if (best.length > limit) best.pop();
    }
    return best;
  }

  private ranksAbove(tool: number, other: number): boolean {
    const difference = this.scores[tool]! - this.scores[other]!;
    if (difference !== 0) return difference > 0;
    return this.names[tool]! < this.names[other]!;
  }

  private matchedWords(tool: number, queryTerms: readonly string[], words: ReadonlyMap<string, string[]>): string[] {
    const terms = this.termsOf[tool]!;
    const matched: string[] = [];
    for (const term of new Set(queryTerms)) if (terms.has(term)) matched.push(...words.get(term)!);
    return matched;
  }
}

function checkOptions(query: unknown, options: ToolSearchOptions): number {
  if (typeof query !== 'string')
    throw new TypeError(`ToolRegistry.search: the query must be a string, but received ${describe(query)}.`);
  const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new RangeError(
      `ToolRegistry.search: limit must be an integer of at least 1, but received ${describe(limit)}.`,
    );
  if (options.filter !== undefined && typeof options.filter !== 'function')
    throw new TypeError(`ToolRegistry.search: filter must be a function, but received ${describe(options.filter)}.`);
  return limit;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) return String(value);
  return typeof value;
}

type FieldTerms = Record<Field, string[]>;

/** The terms of each searched field of a tool; context parameters (never shown to a model) are left out. */
function fieldTerms(definition: ToolDefinition, cache: TermCache): FieldTerms {
  const termsOf = (text: string): string[] => searchTerms(text, cache);
  const parameterNames: string[] = [];
  const parameterDescriptions: string[] = [];
  collectParameters(definition.parameters, 1, parameterNames, parameterDescriptions);
  const names = [definition.name, ...(definition.options.aliases ?? [])];
  return {
    name: names.flatMap(termsOf),
    title: termsOf(definition.options.title ?? ''),
    description: termsOf(definition.description),
    parameterNames: parameterNames.flatMap(termsOf),
    parameterDescriptions: parameterDescriptions.flatMap(termsOf),
  };
}

function collectParameters(schema: ParamSchema, depth: number, names: string[], descriptions: string[]): void {
  if (depth > MAX_PARAMETER_DEPTH) return;
  if (schema.kind === 'object') {
    for (const property of schema.properties) {
      if (property.context !== undefined) continue;
      names.push(property.name);
      describeSchema(property.schema, descriptions);
      collectParameters(property.schema, depth + 1, names, descriptions);
    }
  } else if (schema.kind === 'array') {
    collectParameters(schema.items, depth, names, descriptions);
  } else if (schema.kind === 'union') {
    for (const variant of schema.variants) collectParameters(variant, depth, names, descriptions);
  }
}

/** A parameter's description, title and string enum values (the words a query may use for its values). */
function describeSchema(schema: ParamSchema, descriptions: string[]): void {
  if (schema.description !== undefined) descriptions.push(schema.description);
  if (schema.title !== undefined) descriptions.push(schema.title);
  if (schema.enum !== undefined)
    for (const value of schema.enum) if (typeof value === 'string') descriptions.push(value);
}

/** BM25F's pseudo term frequency: each field's count, length-normalized and weighted, summed over fields. */
function weightedFrequencies(document: FieldTerms, averageLength: ReadonlyMap<Field, number>): Map<string, number> {
  const frequencies = new Map<string, number>();
  for (const field of FIELDS) {
    const terms = document[field];
    if (terms.length === 0) continue;
    const indexed = PHRASE_FIELDS.has(field) ? [...terms, ...termPairs(terms)] : terms;
    const average = averageLength.get(field)!;
    const normalization = 1 - B + (B * terms.length) / average;
    const weight = FIELD_WEIGHTS[field] / normalization;
    for (const term of indexed) frequencies.set(term, (frequencies.get(term) ?? 0) + weight);
  }
  return frequencies;
}
