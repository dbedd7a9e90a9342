/**
 * AWS event stream messages (`application/vnd.amazon.eventstream`), as Bedrock's ConverseStream sends them: a prelude
 * (total length, headers length, their CRC-32), string headers (`:event-type`, `:content-type`, `:message-type`), a JSON
 * payload and the message's CRC-32. What the SDK's own decoder reads in the streaming tests.
 */
import { crc32 } from 'node:zlib';

function header(name: string, value: string): Buffer {
  const nameBytes = Buffer.from(name, 'utf8');
  const valueBytes = Buffer.from(value, 'utf8');
  const out = Buffer.alloc(1 + nameBytes.length + 1 + 2 + valueBytes.length);
  let at = out.writeUInt8(nameBytes.length, 0);
  at += nameBytes.copy(out, at);
  at = out.writeUInt8(7, at); // string
  at = out.writeUInt16BE(valueBytes.length, at);
  valueBytes.copy(out, at);
  return out;
}

/** One event message: `eventType` (`contentBlockDelta`, ...) and its payload. */
export function eventMessage(eventType: string, payload: unknown): Buffer {
  const headers = Buffer.concat([
    header(':event-type', eventType),
    header(':content-type', 'application/json'),
    header(':message-type', 'event'),
  ]);
  const body = Buffer.from(JSON.stringify(payload), 'utf8');
  const total = 12 + headers.length + body.length + 4;
  const prelude = Buffer.alloc(12);
  prelude.writeUInt32BE(total, 0);
  prelude.writeUInt32BE(headers.length, 4);
  prelude.writeUInt32BE(crc32(prelude.subarray(0, 8)), 8);
  const withoutCrc = Buffer.concat([prelude, headers, body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(withoutCrc), 0);
  return Buffer.concat([withoutCrc, crc]);
}
