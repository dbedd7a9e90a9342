import 'reflect-metadata';
import {
  EmbeddingToolSearch,
  PersonaToolExecutor,
  registerToolSearch,
  silentLogger,
  ToolRegistry,
  type SearchToolsResult,
} from '@toolwright/core';

/**
 * A deterministic embedding function: each word maps to a concept (`headphones`, `earbuds` and `audio` are one), a text
 * is the count of its concepts. It stands for a model that knows synonyms, which the lexical ranking does not.
 */
const CONCEPTS: Readonly<Record<string, number>> = {
  cheap: 0,
  inexpensive: 0,
  budget: 0,
  price: 0,
  affordable: 0,
  headphones: 1,
  earbuds: 1,
  audio: 1,
  headset: 1,
  speakers: 1,
  weather: 2,
  forecast: 2,
  rain: 2,
  hotel: 3,
  room: 3,
  stay: 3,
  book: 3,
  catalog: 4,
  products: 4,
  product: 4,
  items: 4,
  shop: 4,
};
const DIMENSIONS = 6;

function conceptEmbedding(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().split(/[^a-z]+/)) {
    const concept = CONCEPTS[word];
    vector[concept ?? DIMENSIONS - 1]! += concept === undefined ? 0.05 : 1;
  }
  return vector;
}

function setup() {
  const registry = new ToolRegistry({ logger: silentLogger });
  registry.registerJsonSchemaTool(
    {
      name: 'search_products',
      description: 'Finds items in the shop catalog.',
      parameters: {
        type: 'object',
        properties: {
          category: { type: 'string', description: 'e.g. audio, kitchen' },
          max_price: { type: 'number', description: 'Upper price bound' },
        },
      },
    },
    () => [],
  );
  registry.registerJsonSchemaTool({ name: 'get_weather', description: 'The weather forecast for a city.' }, () => ({
    sky: 'clear',
  }));
  registry.registerJsonSchemaTool({ name: 'book_hotel', description: 'Books a hotel room.' }, () => 'booked');
  const embedded: string[][] = [];
  const embed = (texts: string[]) => {
    embedded.push(texts);
    return Promise.resolve(texts.map(conceptEmbedding));
  };
  return { registry, embedded, embed };
}

describe('EmbeddingToolSearch: the lexical ranking fused with an embedding function', () => {
  it('finds a tool that shares no word with the query, which the lexical search cannot', async () => {
    const { registry, embed } = setup();
    expect(registry.search('cheap headphones')).toEqual([]);
    const search = new EmbeddingToolSearch(registry, { embed });
    const [best, ...rest] = await search.search('cheap headphones', { limit: 2 });
    expect(best).toMatchObject({ name: 'search_products', matched: [], embeddingRank: 1 });
    expect(best!.lexicalRank).toBeUndefined();
    expect(rest).toHaveLength(1);
    expect(best!.similarity).toBeGreaterThan(rest[0]!.similarity);
  });

  it('fuses by reciprocal rank: a tool first in both rankings scores 2 / (60 + 1), ties broken by name', async () => {
    const { registry, embed } = setup();
    const search = new EmbeddingToolSearch(registry, { embed });
    const [first, second, third] = await search.search('weather forecast', { limit: 3 });
    expect(first).toMatchObject({
      name: 'get_weather',
      lexicalRank: 1,
      embeddingRank: 1,
      matched: ['weather', 'forecast'],
    });
    expect(first!.score).toBeCloseTo(2 / 61, 12);
    // Neither other tool matches a word; both follow in the embedding's order (equal similarity: by name).
    expect([second!.name, third!.name]).toEqual(['book_hotel', 'search_products']);
    expect(second!.score).toBeCloseTo(1 / 62, 12);
    const lexicalOnly = new EmbeddingToolSearch(registry, { embed, weights: { embedding: 0 } });
    expect((await lexicalOnly.search('weather forecast')).map((result) => result.name)).toEqual(['get_weather']);
  });

  it('embeds each tool once (batched), again only a replaced tool; every search embeds its query', async () => {
    const { registry, embedded, embed } = setup();
    const search = new EmbeddingToolSearch(registry, { embed, batchSize: 2 });
    await Promise.all([search.search('hotel'), search.search('rain')]);
    const toolTexts = embedded.filter((batch) => batch.some((text) => text.includes('\n')));
    expect(toolTexts.map((batch) => batch.length)).toEqual([2, 1]);
    expect(
      embedded
        .flat()
        .filter((text) => text === 'hotel' || text === 'rain')
        .sort(),
    ).toEqual(['hotel', 'rain']);
    embedded.length = 0;
    registry.registerJsonSchemaTool({ name: 'book_hotel', description: 'Reserves a hotel stay.' }, () => 'booked');
    await search.search('stay');
    expect(embedded).toEqual([[EmbeddingToolSearch.defaultText(registry.get('book_hotel')!)], ['stay']]);
    expect(EmbeddingToolSearch.defaultText(registry.get('search_products')!)).toBe(
      'search products\nFinds items in the shop catalog.\nParameters: category: e.g. audio, kitchen; max price: Upper price bound',
    );
  });

  it('applies the filter to both rankings and checks its options and the vectors it gets', async () => {
    const { registry, embed } = setup();
    const search = new EmbeddingToolSearch(registry, { embed });
    const filtered = await search.search('cheap headphones', {
      filter: (definition) => definition.name !== 'search_products',
    });
    expect(filtered.map((result) => result.name)).not.toContain('search_products');
    await expect(search.search('x', { limit: 0 })).rejects.toThrow(RangeError);
    await expect(search.search(42 as unknown as string)).rejects.toThrow(TypeError);
    expect(() => new EmbeddingToolSearch(registry, { embed: undefined as never })).toThrow('embed must be a function');
    expect(() => new EmbeddingToolSearch(registry, { embed, rrfK: -1 })).toThrow(RangeError);
    const short = new EmbeddingToolSearch(registry, { embed: (texts) => texts.slice(1).map(conceptEmbedding) });
    await expect(short.search('hotel')).rejects.toThrow('it must return one vector per text');
    let calls = 0;
    const drifting = new EmbeddingToolSearch(registry, {
      embed: (texts) => texts.map(() => new Array<number>(calls++ === 0 ? 4 : 3).fill(1)),
    });
    await expect(drifting.search('hotel')).rejects.toThrow('one model must embed the tools and the queries');
    const notANumber = new EmbeddingToolSearch(registry, { embed: (texts) => texts.map(() => [Number.NaN]) });
    await expect(notANumber.search('hotel')).rejects.toThrow('not a finite number');
  });

  it('search_tools runs it for the model: registerToolSearch(registry, { search })', async () => {
    const { registry, embed } = setup();
    registerToolSearch(registry, { search: new EmbeddingToolSearch(registry, { embed }), defaultLimit: 1 });
    const executor = new PersonaToolExecutor(registry, { logger: silentLogger });
    const result = await executor.execute({
      id: 'c1',
      name: 'search_tools',
      arguments: '{"query": "inexpensive earbuds"}',
    });
    expect(result).toMatchObject({ ok: true });
    expect((result as { value: SearchToolsResult }).value.tools).toEqual([
      { name: 'search_products', description: 'Finds items in the shop catalog.' },
    ]);
    expect(() => registerToolSearch(new ToolRegistry(), { search: {} as never })).toThrow(TypeError);
  });
});
