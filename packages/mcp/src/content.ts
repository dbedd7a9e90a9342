import { ToolContent } from '@toolwright/core';

/**
 * A tool value made of content blocks (text, image, audio, resource links, embedded resources): core's `ToolContent`
 * under its MCP name (one definition). A handler returns one to control exactly what `serveMcp` sends (e.g. an image);
 * the MCP client returns one for a remote result that is not all text. Serializes as `{ content, structuredContent? }`.
 */
export const McpContent = ToolContent;
export type McpContent = ToolContent;
