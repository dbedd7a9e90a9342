import type { ExecutionContext, Logger, ToolRegistry } from '@toolwright/core';
import { getProviders, type ProviderId } from '@toolwright/providers';
import { CliError } from '../errors/cli-error';
import { loadAppRegistry } from './load-app';

/** `--app` or `--mcp`, as every command takes them. */
export interface SourceOptions {
  readonly app?: string;
  readonly mcp?: string;
  /** `--mcp <url>`: where OAuth tokens are kept (default `~/.config/toolwright/mcp-tokens.json`). */
  readonly tokenFile?: string;
  /** `--mcp <url>`: the port of the 127.0.0.1 OAuth redirect listener. */
  readonly oauthPort?: number;
}

/** The application's tools, loaded for one command. */
export interface LoadedTools {
  readonly registry: ToolRegistry;
  /** `examples/persona-app` or `MCP server "node server.js"`, for messages. */
  readonly label: string;
  /** Stops what loading started (the MCP server process). */
  close(): Promise<void>;
}

export async function loadTools(
  options: SourceOptions,
  logger: Logger,
  writeErr: (text: string) => void = (text) => process.stderr.write(text),
): Promise<LoadedTools> {
  if (options.app !== undefined && options.mcp !== undefined) {
    throw new CliError('--app and --mcp were both given. Fix: load the tools from one of them.');
  }
  if (options.app !== undefined) {
    const { registry } = await loadAppRegistry(options.app);
    return { registry, label: options.app, close: async () => undefined };
  }
  if (options.mcp !== undefined) {
    // Loaded here only: the MCP client and SDK are not needed by `--app`.
    const { defaultTokenFile, loadMcpRegistry } = require('./load-mcp') as typeof import('./load-mcp');
    const { DEFAULT_REDIRECT_PORT } =
      require('./oauth-redirect-listener') as typeof import('./oauth-redirect-listener');
    const { registry, connections } = await loadMcpRegistry(options.mcp, logger, {
      tokenFile: options.tokenFile ?? defaultTokenFile(),
      redirectPort: options.oauthPort ?? DEFAULT_REDIRECT_PORT,
      writeErr,
    });
    return { registry, label: `MCP server "${options.mcp}"`, close: () => connections.close() };
  }
  throw new CliError(
    "No tools to load. Fix: pass --app <path> (a module exporting `registry`) or --mcp '<server command line>'.",
  );
}

/** `--provider openai,anthropic` or `all` (the default) as provider ids. */
export function parseProviders(value: string | undefined): ProviderId[] {
  const known = getProviders().map((descriptor) => descriptor.id);
  if (value === undefined || value === 'all') return known;
  const requested = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const unknown = requested.filter((entry) => !(known as string[]).includes(entry));
  if (unknown.length > 0 || requested.length === 0) {
    throw new CliError(
      `--provider ${value}: unknown provider ${unknown.map((entry) => `"${entry}"`).join(', ') || '(none given)'}. Fix: use all or one or more of ${known.join(', ')} (comma-separated).`,
    );
  }
  return requested as ProviderId[];
}

const CONTEXT_STRING_FIELDS = [
  'sessionId',
  'jobId',
  'flowStepId',
  'sourceUrl',
  'imageUrl',
  'timeZone',
  'model',
] as const;

/**
 * `--context '{"sessionId": "s-1", "timeZone": "Europe/Berlin"}'`: the trusted execution context, as JSON. `now` may be
 * an ISO date-time string; `signal` cannot be given.
 */
export function parseContext(text: string | undefined, where = '--context'): ExecutionContext {
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(
      `${where}: not valid JSON (${(error as Error).message}). Fix: pass an object, e.g. '{"sessionId": "session-1", "timeZone": "Europe/Berlin"}'.`,
    );
  }
  return contextFromJson(value, where);
}

/** A JSON value as an ExecutionContext, checked field by field. */
export function contextFromJson(value: unknown, where = 'context'): ExecutionContext {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CliError(
      `${where}: must be a JSON object, got ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}.`,
    );
  }
  const record = { ...(value as Record<string, unknown>) };
  for (const field of CONTEXT_STRING_FIELDS) {
    if (record[field] !== undefined && typeof record[field] !== 'string')
      throw new CliError(`${where}: "${field}" must be a string, got ${JSON.stringify(record[field])}.`);
  }
  if ('signal' in record) throw new CliError(`${where}: "signal" cannot be given as JSON. Fix: leave it out.`);
  if (record['now'] !== undefined) {
    const now = typeof record['now'] === 'string' ? new Date(record['now']) : undefined;
    if (now === undefined || Number.isNaN(now.getTime()))
      throw new CliError(`${where}: "now" must be an ISO-8601 date-time string, got ${JSON.stringify(record['now'])}.`);
    record['now'] = now;
  }
  for (const field of ['persona', 'handlerConfig'] as const) {
    const entry = record[field];
    if (entry !== undefined && (typeof entry !== 'object' || entry === null || Array.isArray(entry)))
      throw new CliError(`${where}: "${field}" must be an object.`);
  }
  if (record['dataPackets'] !== undefined && !Array.isArray(record['dataPackets']))
    throw new CliError(`${where}: "dataPackets" must be an array.`);
  return record;
}
