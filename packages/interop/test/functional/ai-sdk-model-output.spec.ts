import 'reflect-metadata';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { PersonaToolExecutor, silentLogger, ToolContent, ToolRegistry } from '@toolwright/core';
import { toAISDKTools } from '@toolwright/interop/ai-sdk';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model that calls `tool` once, then answers. */
function callingModel(tool: string): MockLanguageModelV4 {
  const turns: LanguageModelV4GenerateResult[] = [
    {
      content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: tool, input: '{}' }],
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage,
      warnings: [],
    },
    {
      content: [{ type: 'text', text: 'Done.' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
      warnings: [],
    },
  ];
  return new MockLanguageModelV4({ doGenerate: turns });
}

/** The tool message of the second request: what the model read of the call. */
function toolMessageOf(call: LanguageModelV4CallOptions | undefined): unknown {
  const message = call?.prompt.find((entry) => entry.role === 'tool');
  return message?.content[0];
}

const registry = new ToolRegistry();
const internal = { id: 'o-1', margin: 0.42, supplier: 'secret supplier' };
registry.registerJsonSchemaTool({ name: 'get_order' }, () => internal, {
  toModelOutput: (value: typeof internal) => `Order ${value.id}`,
});
registry.registerJsonSchemaTool({ name: 'list_orders' }, () => ({
  orders: Array.from({ length: 20_000 }, (_, index) => ({ id: index, note: `order ${index}: ${'x'.repeat(240)}` })),
}));
registry.registerJsonSchemaTool(
  { name: 'chart' },
  () =>
    new ToolContent([
      { type: 'text', text: 'Sales by month' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
    ]),
);
const executor = new PersonaToolExecutor(registry, { logger: silentLogger });

describe('toAISDKTools: the model reads the model view (the AI SDK toModelOutput), the application the value', () => {
  it('toModelOutput: the next prompt carries the view, not the handler value', async () => {
    const model = callingModel('get_order');
    const response = await generateText({
      model,
      tools: toAISDKTools(executor, { include: ['get_order'] }),
      prompt: 'Order?',
      stopWhen: stepCountIs(3),
    });
    expect(response.steps[0]!.toolResults[0]!.output).toEqual(internal);
    expect(toolMessageOf(model.doGenerateCalls[1])).toMatchObject({
      type: 'tool-result',
      toolCallId: 'call_1',
      output: { type: 'text', value: 'Order o-1' },
    });
    expect(JSON.stringify(model.doGenerateCalls[1]!.prompt)).not.toContain('secret supplier');
  });

  it('a 5 MB result: the next prompt carries the view cut to the budget, with the note', async () => {
    const model = callingModel('list_orders');
    const response = await generateText({
      model,
      tools: toAISDKTools(executor, { include: ['list_orders'] }),
      prompt: 'Orders?',
      stopWhen: stepCountIs(3),
    });
    expect((response.steps[0]!.toolResults[0]!.output as { orders: unknown[] }).orders).toHaveLength(20_000);
    const sent = toolMessageOf(model.doGenerateCalls[1]) as {
      output: { type: 'content'; value: { type: 'text'; text: string }[] };
    };
    expect(sent.output.type).toBe('content');
    const [json, note] = sent.output.value;
    expect(json!.text.length).toBeLessThanOrEqual(80_000);
    expect((JSON.parse(json!.text) as { orders: unknown[] }).orders.length).toBeLessThan(20_000);
    expect(note!.text).toContain('This result was cut to fit the tool-result budget of 80,000 characters');
  });

  it('content parts: text and the image as a file part', async () => {
    const model = callingModel('chart');
    await generateText({
      model,
      tools: toAISDKTools(executor, { include: ['chart'] }),
      prompt: 'Chart?',
      stopWhen: stepCountIs(3),
    });
    expect(toolMessageOf(model.doGenerateCalls[1])).toMatchObject({
      output: {
        type: 'content',
        value: [
          { type: 'text', text: 'Sales by month' },
          { type: 'file', mediaType: 'image/png', data: { type: 'data', data: PNG } },
        ],
      },
    });
  });
});
