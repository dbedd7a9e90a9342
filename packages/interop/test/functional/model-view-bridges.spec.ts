import 'reflect-metadata';
import { RunContext } from '@openai/agents';
import { type ToolMessage } from '@langchain/core/messages';
import { PersonaToolExecutor, silentLogger, ToolContent, ToolRegistry } from '@toolwright/core';
import { toLangChainTools } from '@toolwright/interop/langchain';
import { toAgentsTools } from '@toolwright/interop/openai-agents';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';
const ORDER = { id: 'o-1', supplier: 'secret supplier' };

function executor(): PersonaToolExecutor {
  const registry = new ToolRegistry();
  registry.registerJsonSchemaTool({ name: 'get_order' }, () => ORDER, {
    toModelOutput: (value: typeof ORDER) => `Order ${value.id}`,
  });
  registry.registerJsonSchemaTool(
    { name: 'chart' },
    () =>
      new ToolContent([
        { type: 'text', text: 'Sales by month' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
      ]),
  );
  registry.registerJsonSchemaTool({ name: 'plain' }, () => ({ n: 1 }));
  return new PersonaToolExecutor(registry, { logger: silentLogger });
}

describe('LangChain: the ToolMessage content is the model view; the artifact keeps the whole result', () => {
  const tools = Object.fromEntries(toLangChainTools(executor()).map((tool) => [tool.name, tool]));
  const invoke = async (name: string) =>
    (await tools[name]!.invoke({ type: 'tool_call', id: `call_${name}`, name, args: {} })) as ToolMessage;

  it('toModelOutput: the content is the view', async () => {
    const message = await invoke('get_order');
    expect(message.content).toBe('Order o-1');
    expect((message.artifact as { toolwright: { value: unknown } }).toolwright.value).toEqual(ORDER);
  });

  it('an image: text and image_url content blocks', async () => {
    const message = await invoke('chart');
    expect(message.content).toEqual([
      { type: 'text', text: 'Sales by month' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
    ]);
  });

  it('a value without a view: its JSON, as before', async () => {
    expect((await invoke('plain')).content).toBe('{"n":1}');
  });
});

describe('the Agents SDK: the tool output is the model view', () => {
  const tools = Object.fromEntries(toAgentsTools(executor()).map((tool) => [tool.name, tool]));
  const invoke = (name: string) =>
    (tools[name] as { invoke: (context: RunContext, input: string, details?: unknown) => Promise<unknown> }).invoke(
      new RunContext(),
      '{}',
      { toolCall: { type: 'function_call', callId: `call_${name}`, name, arguments: '{}' } },
    );

  it('toModelOutput: the view as text', async () => {
    expect(await invoke('get_order')).toBe('Order o-1');
  });

  it('an image: text and image outputs', async () => {
    expect(await invoke('chart')).toEqual([
      { type: 'text', text: 'Sales by month' },
      { type: 'image', image: { data: PNG, mediaType: 'image/png' } },
    ]);
  });

  it('a value without a view: the value, as before (the SDK serializes it)', async () => {
    expect(await invoke('plain')).toEqual({ n: 1 });
  });
});
