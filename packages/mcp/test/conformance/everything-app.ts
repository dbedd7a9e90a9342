import { HandlerError, ToolRegistry } from '@toolwright/core';
import { currentMcpRequest, McpContent, type McpRequestContext } from '@toolwright/mcp';

/**
 * The conformance suite's "everything server" tools (the names and results its server scenarios call), built with
 * toolwright: JSON Schema tools run by the executor and served by `serveMcp`. Handlers that talk back to the client
 * (progress, logging, sampling, elicitation, SSE polling) use `currentMcpRequest()`.
 */

const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** A valid, silent WAV file: 8 kHz, mono, 8-bit PCM, 8 samples. */
function silentWav(): string {
  const samples = 8;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8_000, 24);
  header.writeUInt32LE(8_000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples, 40);
  return Buffer.concat([header, Buffer.alloc(samples, 128)]).toString('base64');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function mcp(): McpRequestContext {
  const request = currentMcpRequest();
  if (!request) throw new HandlerError('This tool only runs inside an MCP request.');
  return request;
}

const NO_ARGUMENTS = { type: 'object', properties: {} } as const;

export function createEverythingRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  const tool = (
    name: string,
    description: string,
    handler: (params: any) => unknown,
    inputSchema: Record<string, unknown> = NO_ARGUMENTS,
  ) => registry.registerJsonSchemaTool({ name, description, inputSchema }, handler);

  tool('test_simple_text', 'Returns simple text.', () => 'This is a simple text response for testing.');
  tool(
    'test_image_content',
    'Returns an image.',
    () => new McpContent([{ type: 'image', data: PIXEL_PNG, mimeType: 'image/png' }]),
  );
  tool(
    'test_audio_content',
    'Returns audio.',
    () => new McpContent([{ type: 'audio', data: silentWav(), mimeType: 'audio/wav' }]),
  );
  tool(
    'test_embedded_resource',
    'Returns an embedded resource.',
    () =>
      new McpContent([
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ]),
  );
  tool(
    'test_multiple_content_types',
    'Returns text, an image and a resource.',
    () =>
      new McpContent([
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: PIXEL_PNG, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: '{"test":"data","value":123}',
          },
        },
      ]),
  );
  tool('test_tool_with_logging', 'Logs while it runs.', async () => {
    const request = mcp();
    await request.log('info', 'Tool execution started');
    await sleep(50);
    await request.log('info', 'Tool processing data');
    await sleep(50);
    await request.log('info', 'Tool execution completed');
    return 'Logging test completed';
  });
  tool('test_tool_with_progress', 'Reports progress while it runs.', async () => {
    const request = mcp();
    await request.progress(0, 100);
    await sleep(50);
    await request.progress(50, 100);
    await sleep(50);
    await request.progress(100, 100);
    return 'Progress test completed';
  });
  tool('test_error_handling', 'Always fails.', () => {
    throw new HandlerError('This tool intentionally returns an error for testing');
  });
  tool(
    'test_sampling',
    'Asks the client model.',
    async (params: { prompt: string }) => {
      const result = await mcp().createMessage({
        messages: [{ role: 'user', content: { type: 'text', text: params.prompt } }],
        maxTokens: 100,
      });
      const content = result.content as { type: string; text?: string };
      return `LLM response: ${content.type === 'text' ? content.text : JSON.stringify(content)}`;
    },
    { type: 'object', properties: { prompt: { type: 'string', description: 'The prompt' } }, required: ['prompt'] },
  );
  tool(
    'test_elicitation',
    'Asks the user.',
    async (params: { message: string }) => {
      const result = await mcp().elicitInput({
        message: params.message,
        requestedSchema: {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        },
      });
      return `User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
    },
    { type: 'object', properties: { message: { type: 'string', description: 'The message' } }, required: ['message'] },
  );
  tool('test_elicitation_sep1034_defaults', 'Asks the user, with defaults.', async () => {
    const result = await mcp().elicitInput({
      message: 'Please review and update the form fields with defaults',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'User name', default: 'John Doe' },
          age: { type: 'integer', description: 'User age', default: 30 },
          score: { type: 'number', description: 'User score', default: 95.5 },
          status: {
            type: 'string',
            description: 'User status',
            enum: ['active', 'inactive', 'pending'],
            default: 'active',
          },
          verified: { type: 'boolean', description: 'Verification status', default: true },
        },
        required: [],
      },
    });
    return `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
  });
  tool('test_elicitation_sep1330_enums', 'Asks the user, with every enum form.', async () => {
    const result = await mcp().elicitInput({
      message: 'Please select options from the enum fields',
      requestedSchema: {
        type: 'object',
        properties: {
          untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
          titledSingle: {
            type: 'string',
            description: 'Select one option with titles',
            oneOf: [
              { const: 'value1', title: 'First Option' },
              { const: 'value2', title: 'Second Option' },
              { const: 'value3', title: 'Third Option' },
            ],
          },
          legacyEnum: {
            type: 'string',
            description: 'Select one option (legacy)',
            enum: ['opt1', 'opt2', 'opt3'],
            enumNames: ['Option One', 'Option Two', 'Option Three'],
          },
          untitledMulti: {
            type: 'array',
            description: 'Select multiple options',
            minItems: 1,
            maxItems: 3,
            items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          },
          titledMulti: {
            type: 'array',
            description: 'Select multiple options with titles',
            minItems: 1,
            maxItems: 3,
            items: {
              anyOf: [
                { const: 'value1', title: 'First Choice' },
                { const: 'value2', title: 'Second Choice' },
                { const: 'value3', title: 'Third Choice' },
              ],
            },
          },
        },
        required: [],
      } as never,
    });
    return `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
  });
  tool('test_reconnection', 'Closes its SSE stream mid-call, so the client reconnects (SEP-1699).', async () => {
    const request = mcp();
    await sleep(100);
    request.closeSseStream();
    await sleep(100);
    return 'Reconnection test completed';
  });
  tool(
    'json_schema_2020_12_tool',
    'Tool with JSON Schema 2020-12 features',
    (params) => `received ${JSON.stringify(params)}`,
    {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    },
  );
  return registry;
}
