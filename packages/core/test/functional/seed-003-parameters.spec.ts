import 'reflect-metadata';
import {
  Command,
  definitionFromJsonSchema,
  PersonaToolExecutor,
  silentLogger,
  ToolParam,
  ToolRegistry,
  type DataPacket,
  type ExecutionContext,
} from '@toolwright/core';
import {
  buildForHandlerTool,
  buildParameters,
  DataPacketOrderError,
  extractFromContext,
  packetsLatestFirst,
} from '@toolwright/core/internal';

// Seed 003's four tools, their PHP `parameters` maps written as JSON Schema.
const googleSearch = definitionFromJsonSchema({
  name: 'google_search',
  parameters: {
    type: 'object',
    properties: { query: { type: 'string' }, num_results: { type: 'integer' } },
    required: ['query'],
  },
});
const twitterPublish = definitionFromJsonSchema({
  name: 'twitter_publish',
  parameters: { type: 'object', properties: { content: { type: 'string' } }, required: ['content'] },
});
const wordpressPublish = definitionFromJsonSchema({
  name: 'wordpress_publish',
  parameters: {
    type: 'object',
    properties: { content: { type: 'string' }, title: { type: 'string' } },
    required: ['content'],
  },
});
const makeApiRequest = definitionFromJsonSchema({
  name: 'make_api_request',
  parameters: {
    type: 'object',
    properties: { endpoint: { type: 'string' }, method: { type: 'string' }, data: { type: 'object' } },
    required: ['endpoint', 'method'],
  },
});

const twitterData: DataPacket[] = [
  {
    type: 'ai',
    content: { title: 'WordPress Tips', body: 'Great WordPress practices...' },
    metadata: { source_type: 'rss' },
  },
];
const wordpressData: DataPacket[] = [
  {
    type: 'ai',
    content: { title: 'WordPress Security Tips', body: 'Here are 10 essential WordPress security practices...' },
    metadata: { source_type: 'rss' },
  },
];

describe("seed 003's examples produce the seed's flat objects", () => {
  it('google_search (chat agent, buildParameters)', () => {
    const params = buildParameters(
      { query: 'WordPress best practices', num_results: 5 },
      { sessionId: 'session_abc123', dataPacketsLatestFirst: [] },
      googleSearch,
    );
    expect(params).toStrictEqual({
      session_id: 'session_abc123',
      data: [],
      content: null,
      title: null,
      tool_definition: googleSearch,
      tool_name: 'google_search',
      handler_config: {},
      query: 'WordPress best practices',
      num_results: 5,
    });
  });

  it("make_api_request (chat agent): the tool declares its own `data`, so the model's value is the handler's", () => {
    const params = buildParameters(
      { endpoint: '/datamachine/v1/pipelines', method: 'POST', data: { pipeline_name: 'My New Pipeline' } },
      { sessionId: 'session_xyz789', dataPacketsLatestFirst: [] },
      makeApiRequest,
    );
    expect(params).toStrictEqual({
      session_id: 'session_xyz789',
      data: { pipeline_name: 'My New Pipeline' },
      content: null,
      title: null,
      tool_definition: makeApiRequest,
      tool_name: 'make_api_request',
      handler_config: {},
      endpoint: '/datamachine/v1/pipelines',
      method: 'POST',
    });
  });

  const twitterContext: ExecutionContext = {
    dataPacketsLatestFirst: twitterData,
    sourceUrl: 'https://example.com/article',
    imageUrl: 'https://example.com/image.jpg',
    jobId: 'job_456',
    flowStepId: 'step_789',
    handlerConfig: { account_id: '123' },
  };
  const twitterExpected = {
    data: twitterData,
    handler_config: { account_id: '123' },
    content: 'Great WordPress practices...',
    title: 'WordPress Tips',
    tool_definition: twitterPublish,
    tool_name: 'twitter_publish',
    source_url: 'https://example.com/article',
    image_url: 'https://example.com/image.jpg',
    job_id: 'job_456',
    flow_step_id: 'step_789',
  };

  it('twitter_publish (pipeline agent, buildForHandlerTool): extraction fills an empty content', () => {
    expect(buildForHandlerTool(twitterPublish, { content: '' }, twitterContext)).toStrictEqual(twitterExpected);
    expect(buildForHandlerTool(twitterPublish, { content: '   ' }, twitterContext)).toStrictEqual(twitterExpected);
    expect(buildForHandlerTool(twitterPublish, {}, twitterContext)).toStrictEqual(twitterExpected);
  });

  it("twitter_publish: the model's explicit non-empty content overrides extraction (the issue's rule; the seed's own step 5)", () => {
    // Seed 003's result comment shows the extracted body here, against its own step 5 ("Merge AI-provided parameters
    // (overrides automatic extraction)"); issue 16 settles it: a non-empty model value wins.
    expect(buildForHandlerTool(twitterPublish, { content: 'My tweet about WordPress' }, twitterContext)).toStrictEqual({
      ...twitterExpected,
      content: 'My tweet about WordPress',
    });
  });

  it('wordpress_publish (pipeline agent): empty AI parameters, content and title extracted', () => {
    const context: ExecutionContext = {
      dataPacketsLatestFirst: wordpressData,
      sourceUrl: 'https://techblog.com/security-article',
      imageUrl: 'https://techblog.com/security-image.jpg',
      jobId: 'job_789',
      flowStepId: 'step_publish_456',
      handlerConfig: { post_type: 'post', post_status: 'draft' },
    };
    expect(buildForHandlerTool(wordpressPublish, {}, context)).toStrictEqual({
      data: wordpressData,
      handler_config: { post_type: 'post', post_status: 'draft' },
      content: 'Here are 10 essential WordPress security practices...',
      title: 'WordPress Security Tips',
      tool_definition: wordpressPublish,
      tool_name: 'wordpress_publish',
      source_url: 'https://techblog.com/security-article',
      image_url: 'https://techblog.com/security-image.jpg',
      job_id: 'job_789',
      flow_step_id: 'step_publish_456',
    });
  });

  it('a model-supplied context value never survives, in any spelling', () => {
    const params = buildParameters(
      {
        query: 'q',
        session_id: 'forged',
        sessionId: 'forged',
        'Job-Id': 'forged',
        handler_config: { admin: true },
        tool_name: 'other',
        tool_definition: {},
        data: ['forged'],
      },
      { sessionId: 'session_abc123', dataPacketsLatestFirst: [] },
      googleSearch,
    );
    expect(params).toStrictEqual({
      session_id: 'session_abc123',
      data: [],
      content: null,
      title: null,
      tool_definition: googleSearch,
      tool_name: 'google_search',
      handler_config: {},
      query: 'q',
    });
  });
});

describe('the seed tools through the executor: normalized arguments, then the flat object', () => {
  function registry(): ToolRegistry {
    const tools = new ToolRegistry({ logger: silentLogger });
    for (const definition of [googleSearch, twitterPublish, wordpressPublish, makeApiRequest]) {
      tools.registerDefinition(definition, {
        kind: 'function',
        handler: (params, invocation) => buildForHandlerTool(definition, params, invocation.context),
      });
    }
    return tools;
  }

  it('normalizes the model\'s arguments ("5" -> 5) and drops its forged session_id before building', async () => {
    const executor = new PersonaToolExecutor(registry(), { logger: silentLogger });
    const result = await executor.execute(
      {
        id: 'c1',
        name: 'google_search',
        arguments: '{"query": "WordPress best practices", "num_results": "5", "session_id": "forged"}',
      },
      { sessionId: 'session_abc123', dataPacketsLatestFirst: [] },
    );
    expect(result).toMatchObject({
      ok: true,
      value: {
        session_id: 'session_abc123',
        query: 'WordPress best practices',
        num_results: 5,
        tool_name: 'google_search',
        content: null,
        title: null,
        data: [],
        handler_config: {},
      },
    });
  });
});

describe('data packet order: explicit, and never guessed', () => {
  const oldest: DataPacket = { content: { body: 'old body', title: 'Old' } };
  const latest: DataPacket = { content: { body: 'new body', title: 'New' } };

  it.each<[string, ExecutionContext]>([
    ['dataPacketsLatestFirst (seed 003: data[0] is the latest)', { dataPacketsLatestFirst: [latest, oldest] }],
    [
      "dataPackets with dataPacketOrder: 'latest-first'",
      { dataPackets: [latest, oldest], dataPacketOrder: 'latest-first' },
    ],
    [
      "dataPackets with dataPacketOrder: 'oldest-first'",
      { dataPackets: [oldest, latest], dataPacketOrder: 'oldest-first' },
    ],
    ['a single packet needs no order', { dataPackets: [latest] }],
  ])('%s: extraction reads the latest packet', (_label, context) => {
    expect(extractFromContext(context, 'content')).toBe('new body');
    expect(extractFromContext(context, 'title')).toBe('New');
    expect(packetsLatestFirst(context)[0]).toBe(latest);
  });

  it.each<[string, ExecutionContext, string]>([
    [
      'several dataPackets without an order',
      { dataPackets: [oldest, latest] },
      "The execution context's data packets (2 of them) do not say which end is the latest. Fix: set dataPacketOrder: 'latest-first' (data[0] is the latest) or 'oldest-first', or pass them as dataPacketsLatestFirst.",
    ],
    [
      'both fields',
      { dataPackets: [latest], dataPacketsLatestFirst: [latest] },
      "The execution context's data packets are given twice (dataPackets and dataPacketsLatestFirst). Fix: give only one of them.",
    ],
    [
      'an unknown order',
      { dataPackets: [latest], dataPacketOrder: 'newest' as never },
      "The execution context's data packets have an unknown dataPacketOrder \"newest\". Fix: use 'oldest-first' or 'latest-first'.",
    ],
  ])('refuses %s with a DataPacketOrderError', (_label, context, message) => {
    expect(() => extractFromContext(context, 'content')).toThrow(DataPacketOrderError);
    expect(() => extractFromContext(context, 'content')).toThrow(message);
  });

  class PublishParams {
    @ToolParam({ extract: 'content', description: 'The post body' }) content!: string;
    @ToolParam({ extract: 'title', required: false }) title?: string;
  }
  @Command({ name: 'publish', description: 'Publishes a post', params: PublishParams })
  class Publish {
    execute(params: PublishParams) {
      return { content: params.content, title: params.title };
    }
  }

  it.each(['compiled', 'reference'] as const)(
    'an empty model value replaced by extraction is validated as the extracted value (%s path)',
    async (validation) => {
      const registry = new ToolRegistry({ logger: silentLogger });
      registry.registerDefinition(
        definitionFromJsonSchema({
          name: 'post',
          parameters: {
            type: 'object',
            properties: { content: { type: 'string', minLength: 5 } },
            required: ['content'],
          },
        }),
        { kind: 'function', handler: (params) => params },
      );
      const withExtraction = registry.get('post')!;
      const extracting = {
        ...withExtraction,
        parameters: {
          ...withExtraction.parameters,
          properties: withExtraction.parameters.properties.map((property) => ({
            ...property,
            extract: 'content' as const,
          })),
        },
      };
      registry.registerDefinition(extracting, { kind: 'function', handler: (params) => params });
      const executor = new PersonaToolExecutor(registry, { logger: silentLogger, validation });
      expect(
        await executor.execute(
          { id: 'c', name: 'post', arguments: '{"content": ""}' },
          { dataPacketsLatestFirst: [latest] },
        ),
      ).toMatchObject({ ok: true, value: { content: 'new body' } });
      expect(
        await executor.execute(
          { id: 'c', name: 'post', arguments: '{"content": "abc"}' },
          { dataPacketsLatestFirst: [latest] },
        ),
      ).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    },
  );

  it('in the executor: seed-ordered packets extract the latest; an empty model value is filled; an ambiguous order is a developer error', async () => {
    const errors: string[] = [];
    const executor = new PersonaToolExecutor(ToolRegistry.from([Publish], { logger: silentLogger }), {
      logger: { ...silentLogger, error: (message: string) => errors.push(message) },
    });
    const seedOrder = await executor.execute(
      { id: 'c1', name: 'publish', arguments: '{"content": ""}' },
      { dataPacketsLatestFirst: [latest, oldest] },
    );
    expect(seedOrder).toMatchObject({ ok: true, value: { content: 'new body', title: 'New' } });
    expect(seedOrder.transformations).toEqual([
      { path: 'content', rule: 'extracted-content', from: '', to: 'new body' },
      { path: 'title', rule: 'extracted-title', from: undefined, to: 'New' },
    ]);
    const explicit = await executor.execute(
      { id: 'c2', name: 'publish', arguments: '{"content": "Mine"}' },
      { dataPacketsLatestFirst: [latest, oldest] },
    );
    expect(explicit).toMatchObject({ ok: true, value: { content: 'Mine', title: 'New' } });
    const ambiguous = await executor.execute(
      { id: 'c3', name: 'publish', arguments: '{}' },
      { dataPackets: [oldest, latest] },
    );
    expect(ambiguous).toMatchObject({ ok: false, error: { code: 'HANDLER_ERROR', retryable: false } });
    expect(errors[0]).toMatch(
      /^tool publish: The execution context's data packets \(2 of them\) do not say which end is the latest\./,
    );
  });
});
