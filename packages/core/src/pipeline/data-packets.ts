import type { DataPacket, ExecutionContext } from '../types/execution';
import type { ExtractionSource } from '../types/schema';

/**
 * Which data packet is the latest (Data Machine extracts `content.body` / `content.title` from it). Data Machine lists packets
 * latest first (`data[0]`); a log or a queue lists them oldest first. Passing one order where the other is expected
 * silently extracts the wrong packet's content, so the order is never guessed: packets come as
 * `dataPacketsLatestFirst`, or as `dataPackets` with `dataPacketOrder` (which may be left out for a single packet).
 */

/** The execution context names its data packets ambiguously: the developer's bug, reported like a missing context value. */
export class DataPacketOrderError extends Error {
  constructor(detail: string) {
    super(`The execution context's data packets ${detail}`);
  }
}

const ORDERS = ['oldest-first', 'latest-first'];

/** The context's packets latest first (Data Machine's order); empty when there are none. Throws DataPacketOrderError. */
export function packetsLatestFirst(context: ExecutionContext): readonly DataPacket[] {
  const { dataPackets, dataPacketsLatestFirst, dataPacketOrder } = context;
  if (dataPacketsLatestFirst !== undefined) {
    if (dataPackets !== undefined)
      throw new DataPacketOrderError(
        'are given twice (dataPackets and dataPacketsLatestFirst). Fix: give only one of them.',
      );
    if (!Array.isArray(dataPacketsLatestFirst))
      throw new DataPacketOrderError(
        '(dataPacketsLatestFirst) are not an array. Fix: pass an array of packets, latest first.',
      );
    return dataPacketsLatestFirst;
  }
  if (dataPackets === undefined) return [];
  if (!Array.isArray(dataPackets))
    throw new DataPacketOrderError('(dataPackets) are not an array. Fix: pass an array of packets.');
  if (dataPacketOrder !== undefined && !ORDERS.includes(dataPacketOrder)) {
    throw new DataPacketOrderError(
      `have an unknown dataPacketOrder ${JSON.stringify(dataPacketOrder)}. Fix: use 'oldest-first' or 'latest-first'.`,
    );
  }
  if (dataPacketOrder === undefined && dataPackets.length > 1) {
    throw new DataPacketOrderError(
      `(${dataPackets.length} of them) do not say which end is the latest. Fix: set dataPacketOrder: 'latest-first' (data[0] is the latest) or 'oldest-first', or pass them as dataPacketsLatestFirst.`,
    );
  }
  return dataPacketOrder === 'oldest-first' ? [...dataPackets].reverse() : dataPackets;
}

/** The latest packet, or undefined. */
export function latestDataPacket(context: ExecutionContext): DataPacket | undefined {
  return packetsLatestFirst(context)[0];
}

/** The latest packet's `content.body` (for `content`) or `content.title` (for `title`); null counts as none. */
export function extractFromContext(context: ExecutionContext, source: ExtractionSource): unknown {
  const content = latestDataPacket(context)?.content;
  if (content === null || typeof content !== 'object') return undefined;
  const value = source === 'content' ? content.body : content.title;
  return value === null ? undefined : value;
}

/** Whether a model's value counts as given for an extracted field: a string with non-whitespace text, or any other value. */
export function isGivenValue(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  return typeof value !== 'string' || value.trim() !== '';
}
