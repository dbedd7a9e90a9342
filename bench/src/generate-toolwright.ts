import { ArrayOf, Command, DateTime, ToolParam } from '@toolwright/core';

/**
 * Programmatic tools for the registry-size cases: `count` distinct command classes in five shapes, each with its own
 * DTO class (and, for one shape in five, a nested item DTO), decorated by calling the decorators as functions: what
 * TypeScript's emitted code does for a decorated class, minus `design:type` (so every parameter says its `type`).
 */

export type Ctor = new () => object;

export function namedClass(name: string): Ctor {
  return { [name]: class {} }[name] as Ctor;
}

function commandClass(name: string, result: number): Ctor {
  const holder = {
    [name]: class {
      execute() {
        return result;
      }
    },
  };
  return holder[name] as Ctor;
}

export interface GeneratedTool {
  readonly name: string;
  readonly command: Ctor;
  /** Valid arguments for it (JSON text). */
  readonly sampleArguments: string;
}

const SHAPES = 5;

/** `count` toolwright commands; names `tool_<index>_<shape>`. */
export function generateToolwrightCommands(count: number, offset = 0): GeneratedTool[] {
  const tools: GeneratedTool[] = [];
  for (let n = 0; n < count; n++) {
    const index = n + offset;
    const shape = index % SHAPES;
    const name = `tool_${index}_${['search', 'filter', 'charge', 'fetch', 'order'][shape]}`;
    const Params = namedClass(`Tool${index}Params`);
    const proto = Params.prototype as object;
    let sample: Record<string, unknown>;
    switch (shape) {
      case 0:
        ToolParam({ type: 'string', minLength: 1, maxLength: 200, description: 'Text to search for' })(proto, 'query');
        ToolParam({ type: 'int', min: 1, max: 100, description: 'How many results', required: false })(proto, 'limit');
        ToolParam({ type: 'bool', description: 'Include archived items', required: false })(proto, 'includeArchived');
        sample = { query: 'quarterly report', limit: 20, includeArchived: false };
        break;
      case 1:
        ToolParam({ type: 'string', enum: ['open', 'closed', 'pending'], description: 'Status to keep' })(
          proto,
          'status',
        );
        DateTime({ description: 'Only items changed since' })(proto, 'since');
        ArrayOf('string', { description: 'Tags to match', maxItems: 20 })(proto, 'tags');
        sample = { status: 'open', since: '2026-01-31T09:00:00+01:00', tags: ['a', 'b'] };
        break;
      case 2:
        ToolParam({ type: 'float', min: 0, description: 'Amount to charge' })(proto, 'amount');
        ToolParam({ type: 'string', enum: ['EUR', 'USD', 'GBP'], description: 'Currency' })(proto, 'currency');
        ToolParam({ type: 'string', maxLength: 500, description: 'Note on the statement', required: false })(
          proto,
          'note',
        );
        sample = { amount: 12.5, currency: 'EUR', note: 'order 42' };
        break;
      case 3:
        ToolParam({ type: 'string', pattern: '^[a-z0-9-]+$', description: 'Record id' })(proto, 'id');
        ArrayOf('string', { description: 'Fields to return' })(proto, 'fields');
        ToolParam({ type: 'bool', description: 'Only show what would happen', required: false })(proto, 'dryRun');
        sample = { id: 'rec-42', fields: ['name', 'email'] };
        break;
      default: {
        const Item = namedClass(`Tool${index}Item`);
        ToolParam({ type: 'string', minLength: 1, description: 'Stock keeping unit' })(Item.prototype as object, 'sku');
        ToolParam({ type: 'int', min: 1, max: 999, description: 'How many' })(Item.prototype as object, 'quantity');
        ArrayOf(() => Item, { minItems: 1, description: 'Order lines' })(proto, 'items');
        ToolParam({ type: 'string', description: 'Customer id' })(proto, 'customer');
        sample = { items: [{ sku: 'A-1', quantity: 2 }], customer: 'c-7' };
        break;
      }
    }
    const CommandClass = commandClass(`Tool${index}Command`, index);
    Command({ name, description: `Generated tool ${index}`, params: Params })(CommandClass);
    tools.push({ name, command: CommandClass, sampleArguments: JSON.stringify(sample) });
  }
  return tools;
}
