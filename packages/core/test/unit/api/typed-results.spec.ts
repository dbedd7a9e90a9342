import 'reflect-metadata';
import {
  Command,
  PersonaToolExecutor,
  silentLogger,
  ToolParam,
  ToolRegistry,
  type CommandValue,
  type ToolResult,
  type ToolResultOf,
} from '@toolwright/core';

class OrderParams {
  @ToolParam({ description: 'Sku' }) sku!: string;
}

class Order {
  @ToolParam({ description: 'Order id' }) orderId!: string;
  @ToolParam({ type: 'int', min: 1 }) quantity!: number;
}

@Command({ name: 'place_order', description: 'Places an order', params: OrderParams, returns: Order })
class PlaceOrderCommand {
  async execute(params: OrderParams): Promise<Order> {
    return Object.assign(new Order(), { orderId: `o-${params.sku}`, quantity: 1 });
  }
}

/** Compile-time equality: `true` only when A and B are the same type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assertType = <T extends true>(): T => true as T;

describe('typed results', () => {
  it('execute<typeof Command>() resolves to ToolResult<the command value>; a wrong use does not compile', async () => {
    assertType<Equal<CommandValue<typeof PlaceOrderCommand>, Order>>();
    assertType<Equal<ToolResultOf<typeof PlaceOrderCommand>, ToolResult<Order>>>();
    assertType<Equal<CommandValue<(params: unknown) => Promise<number>>, number>>();
    const executor = new PersonaToolExecutor(ToolRegistry.from([PlaceOrderCommand]), { logger: silentLogger });
    const result = await executor.execute<typeof PlaceOrderCommand>({
      id: 'c1',
      name: 'place_order',
      arguments: { sku: 'A' },
    });
    if (!result.ok) throw new Error(result.error.message);
    const id: string = result.value.orderId;
    // @ts-expect-error -- quantity is a number, not a string
    const wrong: string = result.value.quantity;
    // @ts-expect-error -- an Order has no `total`
    expect(result.value.total).toBeUndefined();
    expect([id, wrong]).toEqual(['o-A', 1]);
    // Without a type argument: ToolResult of unknown, as before.
    const untyped = await executor.execute({ id: 'c2', name: 'place_order', arguments: { sku: 'B' } });
    assertType<Equal<typeof untyped, ToolResult>>();
    expect(untyped.ok).toBe(true);
  });
});
