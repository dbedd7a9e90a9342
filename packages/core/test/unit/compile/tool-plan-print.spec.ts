import 'reflect-metadata';
import { ArrayOf, Command, PersonaToolExecutor, ToolParam, ToolRegistry, silentLogger } from '@toolwright/core';
import { configureHotTier, DEFAULT_HOT_TIER } from '@toolwright/core/compile/hot-tier';

class LineItem {
  @ToolParam({ description: 'Stock keeping unit', minLength: 1 }) sku!: string;
  @ToolParam({ type: 'int', description: 'How many', min: 1, max: 99 }) quantity!: number;
}

class PlaceOrderParams {
  @ToolParam({ description: 'Customer e-mail', format: 'email' }) email!: string;
  @ToolParam({ enum: ['standard', 'express'], description: 'Shipping speed', required: false }) shipping?: string;
  @ArrayOf(() => LineItem, { minItems: 1, description: 'Order lines' }) items!: LineItem[];
}

@Command({ name: 'place_order', description: 'Places an order', params: PlaceOrderParams })
class PlaceOrderCommand {
  execute(params: PlaceOrderParams) {
    return params.items.length;
  }
}

function executorFor(configure: (registry: ToolRegistry) => void): PersonaToolExecutor {
  const registry = new ToolRegistry({ logger: silentLogger });
  configure(registry);
  return new PersonaToolExecutor(registry, { logger: silentLogger, telemetry: false });
}

const SAME_SHAPE = {
  type: 'object',
  properties: { amount: { type: 'integer', minimum: 0 } },
  required: ['amount'],
} as const;

describe("a tool's plan as text (issue 26: printable, golden; with the hot tier's code, decision 0031)", () => {
  afterEach(() => {
    configureHotTier(DEFAULT_HOT_TIER);
  });

  it('matches the golden copy for a class command (canonical check records, DTO instantiation)', () => {
    const plan = executorFor((registry) => registry.register(PlaceOrderCommand)).generatedCode('place_order');
    expect(plan).toMatchSnapshot();
  });

  it('matches the golden copy for a JSON-Schema tool', () => {
    const executor = executorFor((registry) =>
      registry.registerJsonSchemaTool({ name: 'refund', parameters: SAME_SHAPE }, () => 'ok'),
    );
    expect(executor.generatedCode('refund')).toMatchSnapshot();
  });

  it('prints the same records for two tools of the same shape, each under its own name', () => {
    const executor = executorFor((registry) => {
      registry.registerJsonSchemaTool({ name: 'refund', parameters: SAME_SHAPE }, () => 'ok');
      registry.registerJsonSchemaTool({ name: 'charge', parameters: SAME_SHAPE }, () => 'ok');
    });
    const refund = executor.generatedCode('refund')!;
    expect(refund.split('\n')[0]).toBe('// toolwright: plan of refund');
    expect(refund.replaceAll('refund', 'charge')).toBe(executor.generatedCode('charge'));
  });

  it('keeps a hostile tool name to one printable line, and runs nothing of it', () => {
    const name = 'evil */ globalThis.pwned = 1; /* \u00e9t\u00e9';
    const executor = executorFor((registry) =>
      registry.registerJsonSchemaTool({ name, parameters: SAME_SHAPE }, () => 'ok'),
    );
    const plan = executor.generatedCode(name)!;
    expect(plan.split('\n')[0]).toBe('// toolwright: plan of evil */ globalThis.pwned = 1; /* ?t?');
    expect((globalThis as Record<string, unknown>).pwned).toBeUndefined();
  });

  it("prints a hot tool's own code as running (golden), named by its tool in a comment and a sourceURL", async () => {
    configureHotTier({ mode: 'always' });
    const executor = executorFor((registry) => registry.register(PlaceOrderCommand));
    const plan = executor.generatedCode('place_order')!;
    expect(plan).toContain('hot check (running):\n// toolwright: hot check of place_order\n');
    expect(plan).toContain(
      'hot instantiator (running):\n// toolwright: hot instantiator of place_order (PlaceOrderParams)\n',
    );
    expect(plan).toContain('//# sourceURL=toolwright/hot/place_order.LineItem.instantiate.js');
    expect(plan).toMatchSnapshot();
    const result = await executor.execute({
      id: 'o',
      name: 'place_order',
      arguments: '{"email":"a@example.com","items":[{"sku":"x","quantity":2}]}',
    });
    expect(result).toMatchObject({ ok: true, value: 1 });
  });

  it("keeps a hostile tool name out of a hot tool's code: a printable comment, a sourceURL of [A-Za-z0-9._-]", async () => {
    configureHotTier({ mode: 'always' });
    const name = 'evil */ globalThis.pwned = 1; /* \u00e9t\u00e9';
    const executor = executorFor((registry) =>
      registry.registerJsonSchemaTool({ name, parameters: SAME_SHAPE }, () => 'ok'),
    );
    expect(await executor.execute({ id: 'h', name, arguments: '{"amount":1}' })).toMatchObject({ ok: true });
    const lines = executor.generatedCode(name)!.split('\n');
    expect(lines).toContain('// toolwright: hot check of evil */ globalThis.pwned = 1; /* ?t?');
    expect(lines).toContain('//# sourceURL=toolwright/hot/evil____globalThis.pwned___1______t_.js');
    expect((globalThis as Record<string, unknown>).pwned).toBeUndefined();
  });

  it('answers undefined for an unknown tool, and an empty text on the reference path (no plan of its own)', () => {
    const registry = new ToolRegistry({ logger: silentLogger });
    registry.register(PlaceOrderCommand);
    const reference = new PersonaToolExecutor(registry, {
      logger: silentLogger,
      telemetry: false,
      validation: 'reference',
    });
    expect(reference.generatedCode('no_such_tool')).toBeUndefined();
    expect(reference.generatedCode('place_order')).toBe('');
  });
});
