import type { ContentBlock } from '@modelcontextprotocol/server';

const MCP_CONTENT_BRAND = Symbol.for('toolwright.mcp.content');

/**
 * A tool value made of MCP content blocks (text, image, audio, resource links, embedded resources). A handler returns
 * one to control exactly what `serveMcp` sends (e.g. an image); the MCP client returns one for a remote result that
 * is not all text. Serializes as `{ content, structuredContent? }`.
 */
export class McpContent {
  private readonly [MCP_CONTENT_BRAND] = true;

  constructor(
    readonly content: readonly ContentBlock[],
    /** Sent as `structuredContent` (an object), beside the blocks. */
    readonly structuredContent?: Readonly<Record<string, unknown>>,
  ) {}

  /** Brand check that survives two installed copies of the package. */
  static isInstance(value: unknown): value is McpContent {
    return (
      typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MCP_CONTENT_BRAND] === true
    );
  }

  toJSON(): { content: readonly ContentBlock[]; structuredContent?: Readonly<Record<string, unknown>> } {
    return {
      content: this.content,
      ...(this.structuredContent !== undefined ? { structuredContent: this.structuredContent } : {}),
    };
  }
}
