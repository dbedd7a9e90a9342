import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

/**
 * Resumability for tests: every SSE event kept in memory, replayed after the `Last-Event-ID` a client reconnects
 * with (the SDK v2 ships no store; this is its example's, with a sequence number instead of a clock).
 */
export class MemoryEventStore implements EventStore {
  private readonly events: { readonly id: string; readonly streamId: string; readonly message: JSONRPCMessage }[] = [];
  private sequence = 0;

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${streamId}_${String(++this.sequence).padStart(12, '0')}`;
    this.events.push({ id, streamId, message });
    return id;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const index = this.events.findIndex((event) => event.id === lastEventId);
    if (index < 0) return '';
    const streamId = this.events[index]!.streamId;
    for (const event of this.events.slice(index + 1)) {
      if (event.streamId === streamId) await send(event.id, event.message);
    }
    return streamId;
  }
}
