import 'reflect-metadata';
import { Command, FromContext, ToolParam, ToolRegistry, type ToolDefinition } from '@toolwright/core';
import { searchTerms, searchWords } from '../../../src/search/search-terms';
import { ToolSearchIndex } from '../../../src/search/tool-search-index';

const noop = () => undefined;

function registryOf(
  tools: ReadonlyArray<{ name: string; description: string; properties?: Record<string, unknown>; title?: string }>,
): ToolRegistry {
  const registry = new ToolRegistry({ onDuplicate: 'error' });
  for (const tool of tools)
    registry.registerJsonSchemaTool(
      {
        name: tool.name,
        description: tool.description,
        parameters: { type: 'object', properties: tool.properties ?? {} },
        ...(tool.title !== undefined ? { title: tool.title } : {}),
      },
      noop,
    );
  return registry;
}

describe('search terms', () => {
  it('splits snake, camel, kebab, dotted and acronym identifiers into lowercase words', () => {
    expect(searchWords('get_current_weather')).toEqual(['get', 'current', 'weather']);
    expect(searchWords('getCurrentWeather')).toEqual(['get', 'current', 'weather']);
    expect(searchWords('get-current-weather')).toEqual(['get', 'current', 'weather']);
    expect(searchWords('weather.forecast/v2')).toEqual(['weather', 'forecast', 'v2']);
    expect(searchWords('HTTPServer parseJSONText v2Api')).toEqual([
      'http',
      'server',
      'parse',
      'json',
      'text',
      'v2',
      'api',
    ]);
    expect(searchWords('Weather_1_GetWeather')).toEqual(['weather', '1', 'get', 'weather']);
  });

  it('keeps letters of other scripts and splits on every non-letter, non-digit character', () => {
    expect(searchWords('北京 天气, Ändere columnCount!')).toEqual(['北京', '天气', 'ändere', 'column', 'count']);
    expect(searchWords('😀a😀B')).toEqual(['a', 'b']);
    expect(searchWords('')).toEqual([]);
    expect(searchWords('  ,.;  ')).toEqual([]);
  });

  it('splits Chinese, Japanese and Thai runs into words (Unicode word breaks with ICU dictionaries)', () => {
    expect(searchWords('北京后天的天气如何？')).toEqual(['北京', '后天', '的', '天气', '如何']);
    expect(searchWords('東京の天気を教えて')).toEqual(['東京', 'の', '天気', 'を', '教え', 'て']);
    expect(searchWords('ช่วยหาคุณแม่บ้านที่ให้บริการรีดผ้า')).toEqual([
      'ช่วย',
      'หา',
      'คุณ',
      'แม่',
      'บ้าน',
      'ที่',
      'ให้',
      'บริการ',
      'รีด',
      'ผ้า',
    ]);
    expect(searchWords('getWeather北京 거실 에어컨')).toEqual(['get', 'weather', '北京', '거실', '에어컨']);
  });

  it('keeps combining marks in their word and folds compatibility forms (NFKC)', () => {
    expect(searchWords('नमस्ते दुनिया')).toEqual(['नमस्ते', 'दुनिया']); // vowel signs and virama are marks
    expect(searchWords('Cafe\u0301 E\u0301COLE \u0301x')).toEqual(['café', 'école', 'x']); // accents typed apart
    expect(searchTerms('ｗｅａｔｈｅｒ ＦＯＲＥＣＡＳＴＳ')).toEqual(['weather', 'forecast']); // full-width Latin
    expect(searchWords('ｇｅｔＷｅａｔｈｅｒ')).toEqual(['get', 'weather']);
  });

  it('drops English stop words and stems English words (Porter2), leaving other words as they are', () => {
    expect(searchTerms('Calculates the calculations of a quadratic equation')).toEqual([
      'calcul',
      'calcul',
      'quadrat',
      'equat',
    ]);
    expect(searchTerms('the and of')).toEqual([]);
    expect(searchTerms('2023 北京')).toEqual(['北京']);
  });

  it('keeps contractions and possessives whole, so no stray letter becomes a term', () => {
    expect(searchWords("What's the user's plan? Don’t ask O'Neil")).toEqual([
      "what's",
      'the',
      "user's",
      'plan',
      "don't",
      'ask',
      'o',
      'neil',
    ]);
    expect(searchWords("the users' 'quoted' words'")).toEqual(['the', 'users', 'quoted', 'words']);
    expect(searchTerms("What's the user's plan? Don’t ask")).toEqual(['user', 'plan', "don't", 'ask']);
  });

  it('drops numbers but keeps words with digits: a number is a value, not what a tool does', () => {
    expect(searchTerms('Weather_1_GetWeather')).toEqual(['weather', 'weather']);
    expect(searchTerms('forecast for 2023-04-12, 5 days')).toEqual(['forecast', 'day']);
    expect(searchTerms('base64 sha256 v2 ipv4')).toEqual(['base64', 'sha256', 'v2', 'ipv4']);
  });

  it('splits a long text in linear time and never stems an over-long word', () => {
    const long = 'A'.repeat(200_000) + 'b'; // one run of capitals: a backtracking pattern would be quadratic here
    const started = performance.now();
    const words = searchWords(long);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(words).toEqual(['a'.repeat(199_999), 'ab']);
    expect(searchTerms('x'.repeat(41) + 's')).toEqual(['x'.repeat(41) + 's']);
    const unspaced = '天气预报'.repeat(25_000) + 'ช่วยหาคุณ'.repeat(10_000) + '\u0301'.repeat(50_000);
    const segmented = performance.now();
    expect(searchWords(unspaced)).toHaveLength(80_000);
    expect(performance.now() - segmented).toBeLessThan(4_000);
  });
});

describe('ToolRegistry.search', () => {
  const registry = registryOf([
    { name: 'solve_quadratic_equation', description: 'Solve a quadratic equation ax^2 + bx + c = 0 for x.' },
    { name: 'math.factorial', description: 'Calculate the factorial of a non-negative integer.' },
    {
      name: 'get_current_weather',
      description: 'Retrieves the current weather conditions for a city.',
      properties: {
        location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      },
    },
    { name: 'book_hotel', description: 'Reserve a room.', title: 'Hotel booking' },
    { name: 'sendEmail', description: 'Send a message to a recipient.', properties: { recipient_address: {} } },
  ]);

  it('returns the best matches first, with a score and the query words each matched', () => {
    const results = registry.search('What is the weather in Boston, in fahrenheit?');
    expect(results.map((result) => result.name)).toEqual(['get_current_weather']);
    expect(results[0]!.score).toBeGreaterThan(0);
    expect(results[0]!.matched).toEqual(['weather', 'fahrenheit']);
    expect(registry.search('factorial of 5')[0]).toMatchObject({ name: 'math.factorial', matched: ['factorial'] });
  });

  it('searches names, titles, descriptions, parameter names and parameter descriptions', () => {
    expect(registry.search('solving equations')[0]!.name).toBe('solve_quadratic_equation');
    expect(registry.search('hotel')[0]!.name).toBe('book_hotel'); // name and title
    expect(registry.search('send email')[0]!.name).toBe('sendEmail'); // camelCase name
    expect(registry.search('recipient address')[0]!.name).toBe('sendEmail'); // parameter name
    expect(registry.search('San Francisco')[0]!.name).toBe('get_current_weather'); // parameter description
    expect(registry.search('celsius')[0]!.name).toBe('get_current_weather'); // enum value
  });

  it('returns nothing for a query that shares no word with any tool, or only stop words and numbers', () => {
    expect(registry.search('zebra')).toEqual([]);
    expect(registry.search('the of and')).toEqual([]);
    expect(registry.search("what's 2 + 2")).toEqual([]);
    expect(registry.search('')).toEqual([]);
  });

  it('finds tools described in Chinese or Thai by a question in the same language', () => {
    const local = registryOf([
      { name: 'weather_cn', description: '查询城市的天气预报' },
      { name: 'news_cn', description: '搜索最新的新闻' },
      { name: 'find_housekeeper', description: 'ค้นหาแม่บ้านที่ให้บริการรีดผ้า' },
      { name: 'weather', description: 'Weather forecast of a city' },
    ]);
    expect(local.search('北京明天的天气怎么样？')[0]).toMatchObject({ name: 'weather_cn', matched: ['的', '天气'] });
    expect(local.search('ช่วยหาคุณแม่บ้านที่ให้บริการรีดผ้า')[0]!.name).toBe('find_housekeeper');
    expect(local.search('ｗｅａｔｈｅｒ in Tokyo')[0]).toMatchObject({ name: 'weather', matched: ['weather'] });
  });

  it('honours limit and filter', () => {
    const all = registry.search('calculate solve weather hotel send', { limit: 10 });
    expect(all).toHaveLength(5);
    expect(registry.search('calculate solve weather hotel send', { limit: 2 })).toEqual(all.slice(0, 2));
    const filtered = registry.search('calculate solve weather hotel send', {
      filter: (definition) => definition.name.includes('_'),
    });
    expect(filtered.map((result) => result.name).sort()).toEqual([
      'book_hotel',
      'get_current_weather',
      'solve_quadratic_equation',
    ]);
  });

  it('breaks ties by name, so equal tools always come in the same order', () => {
    const twins = registryOf([
      { name: 'b_lookup', description: 'Look up a word.' },
      { name: 'a_lookup', description: 'Look up a word.' },
      { name: 'c_lookup', description: 'Look up a word.' },
    ]);
    const results = twins.search('look up word');
    expect(results.map((result) => result.name)).toEqual(['a_lookup', 'b_lookup', 'c_lookup']);
    expect(new Set(results.map((result) => result.score)).size).toBe(1);
    expect(twins.search('look up word')).toEqual(results);
  });

  it('ranks a tool whose phrase the query names above one with the same words apart', () => {
    const tools = registryOf([
      { name: 'equation_tools', description: 'Solve a system; quadratic forms are reported separately.' },
      { name: 'algebra', description: 'Solve a quadratic equation.' },
    ]);
    expect(tools.search('quadratic equation')[0]!.name).toBe('algebra');
  });

  it('builds the index on the first search and rebuilds it after every change', () => {
    const changing = registryOf([{ name: 'alpha_tool', description: 'First tool.' }]);
    expect(changing.search('beta')).toEqual([]);
    changing.registerJsonSchemaTool({ name: 'beta_tool', description: 'Second tool.' }, noop);
    expect(changing.search('beta').map((result) => result.name)).toEqual(['beta_tool']);
    changing.unregister('beta_tool');
    expect(changing.search('beta')).toEqual([]);
  });

  it('never indexes context parameters (they are not the model-facing tool)', () => {
    class Params {
      @ToolParam({ description: 'What to look for' }) text!: string;
      @FromContext('session_id') sessionIdentifier?: string;
    }
    @Command({ name: 'find_notes', description: 'Find notes.', params: Params })
    class FindNotes {
      execute() {
        return [];
      }
    }
    const classes = ToolRegistry.from([FindNotes]);
    expect(classes.search('look for').map((result) => result.name)).toEqual(['find_notes']);
    expect(classes.search('session identifier')).toEqual([]);
  });

  it('refuses a query that is not a string, a bad limit and a filter that is not a function, with a clear error', () => {
    expect(() => registry.search(42 as unknown as string)).toThrow(
      new TypeError('ToolRegistry.search: the query must be a string, but received 42.'),
    );
    for (const limit of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => registry.search('weather', { limit })).toThrow(RangeError);
    expect(() => registry.search('weather', { limit: 0 })).toThrow(
      'ToolRegistry.search: limit must be an integer of at least 1, but received 0.',
    );
    expect(() => registry.search('weather', { filter: 'yes' as unknown as () => boolean })).toThrow(TypeError);
  });

  it('stays usable after a filter throws (scores are reset)', () => {
    const before = registry.search('weather');
    expect(() =>
      registry.search('weather', {
        filter: () => {
          throw new Error('filter failed');
        },
      }),
    ).toThrow('filter failed');
    expect(registry.search('weather')).toEqual(before);
  });

  it('treats hostile words as plain words (no prototype keys, no crash)', () => {
    const hostile = registryOf([{ name: 'constructor_info', description: '__proto__ toString hasOwnProperty' }]);
    expect(hostile.search('__proto__ constructor toString').map((result) => result.name)).toEqual(['constructor_info']);
    expect(hostile.search('valueOf')).toEqual([]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('indexes an empty tool list', () => {
    const empty: readonly ToolDefinition[] = [];
    expect(ToolSearchIndex.build(empty).search('anything')).toEqual([]);
    expect(new ToolRegistry().search('anything')).toEqual([]);
  });
});
