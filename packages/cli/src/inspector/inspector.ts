import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import {
  PersonaToolExecutor,
  defaultLogger,
  type ExecutionContext,
  type Logger,
  type ToolRegistry,
} from '@toolwright/core';
import { reportCall, transformationsOf, type CallReport } from '../calls/call-report';
import { readCall, type CallShape } from '../calls/read-call';
import { CliError } from '../errors/cli-error';
import { contextFromJson } from '../source/tools';
import { describeRegistry } from './describe-registry';
import { InspectorEventLog } from './event-log';
import { INSPECTOR_STYLES, inspectorPage } from './page';

export interface InspectorOptions {
  readonly registry: ToolRegistry;
  /**
   * The executor calls go through. Default: a new `PersonaToolExecutor` over the registry, logging through the event
   * log. Pass the application's own (created with `logger: events.tap(appLogger)`) to see its live statistics.
   */
  readonly executor?: PersonaToolExecutor;
  /** Where security events are recorded; pass the one whose `tap` the executor logs through. */
  readonly events?: InspectorEventLog;
  /** Whether the page may run handlers (each run is still confirmed in the page). Default false: prepare only. */
  readonly allowRun?: boolean;
  /** The secret every request must carry. Default: 24 random bytes, base64url (new for every inspector). */
  readonly token?: string;
  /** The context prefilled in the page (and used when a request sends none). */
  readonly defaultContext?: ExecutionContext;
  /** Shown in the page header: where the tools came from. */
  readonly source?: string;
  readonly logger?: Logger;
}

/** The inspector as a request handler: mount it in any Node HTTP server, Express or Nest (it serves everything below its mount path). */
export interface Inspector {
  readonly token: string;
  readonly allowRun: boolean;
  readonly events: InspectorEventLog;
  readonly executor: PersonaToolExecutor;
  /** `(request, response, next?)`: unknown paths go to `next` when given, else 404. */
  readonly handler: (request: IncomingMessage, response: ServerResponse, next?: (error?: unknown) => void) => void;
  /** Ends the live streams. */
  close(): void;
}

const MAX_BODY_BYTES = 1024 * 1024;
const TOKEN_HEADER = 'x-toolwright-token';
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
};

class HttpProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

let pageScript: string | undefined;

/** The page script, compiled from web/src by the package build (dist/web/app.js, from src/inspector or dist/inspector alike). */
function readPageScript(): string {
  if (pageScript === undefined) {
    const file = resolve(__dirname, '..', '..', 'dist', 'web', 'app.js');
    try {
      pageScript = readFileSync(file, 'utf8');
    } catch {
      throw new HttpProblem(
        500,
        `The inspector page script is not built (${file}). Run npm run build in the toolwright repository (or reinstall @toolwright/cli).`,
      );
    }
  }
  return pageScript;
}

/** Creates the inspector for a registry: the page, its assets and its JSON API, all behind a per-inspector token. */
export function createInspector(options: InspectorOptions): Inspector {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const allowRun = options.allowRun ?? false;
  const events = options.events ?? new InspectorEventLog();
  const logger = options.logger ?? defaultLogger;
  // The inspector's own executor: security events recorded, handler failures logged (refusals are shown in the page).
  const executor =
    options.executor ??
    new PersonaToolExecutor(options.registry, {
      logger: events.tap({
        debug: () => undefined,
        info: () => undefined,
        warn: () => undefined,
        error: (message, details) => logger.error(message, details),
      }),
    });
  const defaultContext = options.defaultContext ?? {};
  const streams = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  const expected = Buffer.from(token);

  const authorized = (request: IncomingMessage, url: URL, allowQuery: boolean): boolean => {
    const header = request.headers[TOKEN_HEADER];
    const given = typeof header === 'string' ? header : allowQuery ? url.searchParams.get('token') : null;
    if (given === null) return false;
    const buffer = Buffer.from(given);
    return buffer.length === expected.length && timingSafeEqual(buffer, expected);
  };

  const send = (response: ServerResponse, status: number, contentType: string, body: string) => {
    response.writeHead(status, {
      ...SECURITY_HEADERS,
      'content-type': contentType,
      'content-length': Buffer.byteLength(body),
    });
    response.end(body);
  };
  const sendJson = (response: ServerResponse, status: number, value: unknown) =>
    send(response, status, 'application/json; charset=utf-8', JSON.stringify(value));

  const statsSnapshot = () => ({
    transformations: executor.stats.snapshot(),
    securityEvents: executor.stats.securityEvents,
    events: events.securityEvents(),
    calls: events.recentCalls(),
  });

  const record = (origin: 'form' | 'playground', report: CallReport, context: ExecutionContext) => {
    // A prepared call is not counted by the executor (only run calls are); count it in the same stats.
    if (report.mode === 'prepare' && report.transformations.length > 0)
      executor.stats.record(report.tool, transformationsOf(report), context.model);
    events.recordCall({
      time: new Date().toISOString(),
      origin,
      mode: report.mode,
      tool: report.tool,
      ok: report.ok,
      ...(report.error ? { code: report.error.code } : {}),
      transformations: report.transformations.length,
    });
  };

  const runGate = (body: Record<string, unknown>): boolean => {
    if (body['run'] !== true) return false;
    if (!allowRun)
      throw new HttpProblem(
        403,
        'Running handlers is off in this inspector. Start it with --allow-run (createInspector({ allowRun: true })) to run them; preparing calls works without it.',
      );
    if (body['confirm'] !== true)
      throw new HttpProblem(400, 'Running a handler needs the confirmation from the page ("confirm": true).');
    return true;
  };

  const contextOf = (body: Record<string, unknown>): ExecutionContext => {
    if (body['context'] === undefined) return defaultContext;
    try {
      return contextFromJson(body['context'], 'context');
    } catch (error) {
      throw new HttpProblem(400, (error as Error).message);
    }
  };

  const api = async (request: IncomingMessage, response: ServerResponse, route: string): Promise<boolean> => {
    if (route === 'api/registry' && request.method === 'GET') {
      sendJson(
        response,
        200,
        await describeRegistry(options.registry, {
          source: options.source ?? 'application',
          allowRun,
          defaultContext,
          executor,
        }),
      );
      return true;
    }
    if (route === 'api/stats' && request.method === 'GET') {
      sendJson(response, 200, statsSnapshot());
      return true;
    }
    if (route === 'api/call' && request.method === 'POST') {
      const body = await readJsonBody(request);
      const tool = body['tool'];
      if (typeof tool !== 'string' || tool === '') throw new HttpProblem(400, '"tool" must be the name of a tool.');
      const argumentsValue = body['arguments'];
      if (
        argumentsValue !== undefined &&
        argumentsValue !== null &&
        typeof argumentsValue !== 'string' &&
        (typeof argumentsValue !== 'object' || Array.isArray(argumentsValue))
      ) {
        throw new HttpProblem(400, '"arguments" must be an object or text.');
      }
      const run = runGate(body);
      const context = contextOf(body);
      const report = await reportCall(
        executor,
        { id: 'call_form_1', name: tool, arguments: argumentsValue as string | Record<string, unknown> | undefined },
        { context, run },
      );
      record('form', report, context);
      sendJson(response, 200, { report });
      return true;
    }
    if (route === 'api/playground' && request.method === 'POST') {
      const body = await readJsonBody(request);
      if (typeof body['input'] !== 'string') throw new HttpProblem(400, '"input" must be the pasted text.');
      const shape = (typeof body['shape'] === 'string' ? body['shape'] : 'auto') as CallShape;
      const tool = typeof body['tool'] === 'string' && body['tool'] !== '' ? body['tool'] : undefined;
      const run = runGate(body);
      const context = contextOf(body);
      let read;
      try {
        read = readCall(body['input'], {
          registry: options.registry,
          shape,
          ...(tool ? { tool } : {}),
          id: 'call_playground_1',
        });
      } catch (error) {
        if (error instanceof CliError) throw new HttpProblem(400, error.message);
        throw error;
      }
      const report = await reportCall(executor, read.call, {
        context,
        run,
        shape: read.shape,
        registry: options.registry,
      });
      record('playground', report, context);
      sendJson(response, 200, { shape: read.shape, found: read.found, report });
      return true;
    }
    if (route === 'api/stream' && request.method === 'GET') {
      response.writeHead(200, {
        ...SECURITY_HEADERS,
        'content-type': 'text/event-stream; charset=utf-8',
        connection: 'keep-alive',
      });
      streams.add(response);
      let last = '';
      const push = () => {
        const snapshot = JSON.stringify(statsSnapshot());
        if (snapshot === last) return;
        last = snapshot;
        response.write(`event: stats\ndata: ${snapshot}\n\n`);
      };
      push();
      const timer = setInterval(push, 1000);
      timers.add(timer);
      request.on('close', () => {
        clearInterval(timer);
        timers.delete(timer);
        streams.delete(response);
      });
      return true;
    }
    return false;
  };

  const handler: Inspector['handler'] = (request, response, next) => {
    const url = new URL(request.url ?? '/', 'http://inspector.invalid');
    const route = url.pathname.replace(/^\/+/, '');
    const original = (request as IncomingMessage & { originalUrl?: string }).originalUrl;
    void (async () => {
      try {
        const isPage = route === '' || route === 'index.html';
        const isAsset = route === 'assets/app.js' || route === 'assets/style.css';
        const isApi = route.startsWith('api/');
        if (!isPage && !isAsset && !isApi) {
          if (next) return next();
          throw new HttpProblem(404, `No inspector page at /${route}.`);
        }
        // The page, its assets and the event stream may carry the token in the URL; the JSON API only in the header.
        if (!authorized(request, url, isPage || isAsset || route === 'api/stream')) {
          throw new HttpProblem(
            401,
            'Missing or wrong inspector token. Open the URL the inspector printed at start (it carries ?token=...).',
          );
        }
        if (isPage) {
          // Mounted under a prefix without a trailing slash (Express: /inspector?token=...): the page's relative URLs need one.
          const originalPath = original?.split('?')[0];
          if (originalPath !== undefined && !originalPath.endsWith('/')) {
            response.writeHead(308, { ...SECURITY_HEADERS, location: `${originalPath}/${url.search}` });
            response.end();
            return;
          }
          send(response, 200, 'text/html; charset=utf-8', inspectorPage({ token, allowRun }));
          return;
        }
        if (route === 'assets/app.js') return send(response, 200, 'text/javascript; charset=utf-8', readPageScript());
        if (route === 'assets/style.css') return send(response, 200, 'text/css; charset=utf-8', INSPECTOR_STYLES);
        if (!(await api(request, response, route)))
          throw new HttpProblem(405, `${request.method ?? 'GET'} /${route} is not an inspector endpoint.`);
      } catch (error) {
        if (response.headersSent) {
          response.end();
          return;
        }
        if (error instanceof HttpProblem) return sendJson(response, error.status, { error: error.message });
        logger.error(`inspector: ${request.method ?? 'GET'} /${route} failed`, {
          error: error instanceof Error ? error.message : String(error),
        });
        sendJson(response, 500, { error: 'The inspector failed to answer this request; see the server log.' });
      }
    })();
  };

  return {
    token,
    allowRun,
    events,
    executor,
    handler,
    close: () => {
      for (const timer of timers) clearInterval(timer);
      timers.clear();
      for (const stream of streams) stream.end();
      streams.clear();
    },
  };
}

async function readJsonBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const type = request.headers['content-type'] ?? '';
  if (!type.startsWith('application/json')) throw new HttpProblem(415, 'Send the request body as application/json.');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpProblem(413, `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
    chunks.push(chunk as Buffer);
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpProblem(400, 'The request body is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new HttpProblem(400, 'The request body must be a JSON object.');
  return value as Record<string, unknown>;
}
