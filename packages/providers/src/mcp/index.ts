/**
 * Model Context Protocol shapes (spec 2025-11-25; the MCP SDK v2 types them the same): `tools/list` entries
 * `{name, title?, description?, inputSchema, annotations?}` (names SHOULD match `^[A-Za-z0-9._-]{1,128}$`; the
 * schema is JSON Schema 2020-12, verbatim), `tools/call` requests with object `arguments`, and `CallToolResult`
 * `{content, structuredContent?, isError?}` with tool errors as `isError: true`. The MCP client and server
 * themselves live in `@toolwright/mcp`; this module is the format only. Reference: provider-formats.md §9.
 */
export * from './tools';
export * from './calls';
export * from './results';
export * from './provider';
export type { ParsedToolCall, ParseToolCallsOptions } from '../shared/calls';
export type { ToolSet, ToolSetOptions } from '../shared/tool-set';
