/**
 * mcp: calls in, whole and streamed.
 * The wire format is summarized in `./index.ts` (provider-formats.md §9).
 */
import { CallBuilder, objectArguments, type ParsedToolCall, type ParseToolCallsOptions } from '../shared/calls';
import { asRecord, recordAt, stringAt, valueAt } from '../shared/read';

/**
 * The calls of `tools/call` requests: a JSON-RPC request (`{id, method: "tools/call", params}`), its `params`
 * (`{name, arguments}`), or an array of either. The call id is the JSON-RPC id (params alone get a generated id).
 */
export function parseToolCalls(
  request: object | readonly object[],
  options: ParseToolCallsOptions = {},
): ParsedToolCall[] {
  const requests = Array.isArray(request) ? request : [request];
  const builder = new CallBuilder(options);
  const calls: ParsedToolCall[] = [];
  for (const item of requests) {
    const method = stringAt(item, 'method');
    if (method !== undefined && method !== 'tools/call') continue;
    const params = recordAt(item, 'params') ?? asRecord(item);
    const name = stringAt(params, 'name');
    if (name === undefined) continue;
    const rawId = valueAt(item, 'id');
    const id = typeof rawId === 'string' || typeof rawId === 'number' ? String(rawId) : undefined;
    calls.push(builder.build(id, name, objectArguments(valueAt(params, 'arguments') ?? {})));
  }
  return calls;
}
