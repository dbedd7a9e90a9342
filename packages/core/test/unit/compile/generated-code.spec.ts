import 'reflect-metadata';
import { ArrayOf, Command, PersonaToolExecutor, ToolParam, ToolRegistry, silentLogger } from '@toolwright/core';

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

describe('the code generated for a tool (issue 26: printable, named, golden)', () => {
  it('matches the golden copy for a class command (canonical check, DTO instantiator)', () => {
    const code = executorFor((registry) => registry.register(PlaceOrderCommand)).generatedCode('place_order');
    expect(code).toMatchSnapshot();
  });

  it('matches the golden copy for a JSON-Schema tool', () => {
    const executor = executorFor((registry) =>
      registry.registerJsonSchemaTool({ name: 'refund', parameters: SAME_SHAPE }, () => 'ok'),
    );
    expect(executor.generatedCode('refund')).toMatchSnapshot();
  });

  it('gives two tools of the same shape sources of their own (no shared V8 feedback), each with its sourceURL', () => {
    const executor = executorFor((registry) => {
      registry.registerJsonSchemaTool({ name: 'refund', parameters: SAME_SHAPE }, () => 'ok');
      registry.registerJsonSchemaTool({ name: 'charge', parameters: SAME_SHAPE }, () => 'ok');
    });
    const refund = executor.generatedCode('refund')!;
    const charge = executor.generatedCode('charge')!;
    expect(refund).not.toBe(charge);
    expect(refund.replaceAll('refund', 'charge')).toBe(charge);
    expect(charge.split('\n').filter((line) => line.startsWith('//# sourceURL='))).toEqual([
      '//# sourceURL=toolwright-generated:///accept_charge.js',
    ]);
  });

  it('keeps a hostile tool name out of the code: one comment line, a sanitized URL', () => {
    const name = 'evil */ globalThis.pwned = 1; /* //# sourceURL=javascript:alert(1) \u2028x';
    const executor = executorFor((registry) =>
      registry.registerJsonSchemaTool({ name, parameters: SAME_SHAPE }, () => 'ok'),
    );
    const code = executor.generatedCode(name)!;
    expect(code).toContain(
      '// toolwright: accept evil ? globalThis.pwned = 1; /* //# sourceURL=javascript:alert(1) ?x\n',
    );
    expect(code).toContain(
      '//# sourceURL=toolwright-generated:///accept_evil_globalThis.pwned_1_sourceURL_javascript_alert_1_x.js',
    );
    expect((globalThis as Record<string, unknown>).pwned).toBeUndefined();
  });

  it('answers undefined for an unknown tool, and an empty text when the reference path generates nothing', () => {
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
