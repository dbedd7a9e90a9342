/** MCP tool names (SEP-986): 1-128 of `A-Z a-z 0-9 _ - .`. Servers SHOULD use them. */
export const MCP_TOOL_NAME = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * What this client registers at all: 1-128 printable characters without white space. A superset of SEP-986, so a
 * registry name such as `notes/export` (any name is a valid registry name) survives a round trip through MCP; a name
 * outside SEP-986 is registered with a warning.
 */
export const ACCEPTED_TOOL_NAME = /^[^\s\p{C}]{1,128}$/u;
