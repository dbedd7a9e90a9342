/**
 * Client-side elicitation: a server's question during a tool call (`elicitation/create`, form or URL mode) goes to
 * the app's `onElicitation` with the call's trusted context; the answer is checked here before it is sent.
 */
import type { ExecutionContext, JsonSchemaLimits, Logger } from '@toolwright/core';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type {
  Client,
  ClientCapabilities,
  ElicitRequestParams,
  ElicitResult,
  JsonSchemaType,
  jsonSchemaValidator,
} from '@modelcontextprotocol/client';
import { McpElicitationError } from '../errors/mcp-elicitation-error';
import { clientMessages } from '../messages';
import { untrustedSchemaProblem } from './bounded-schema-validator';
import { callOfRequest } from './call-scope';

/** Where a question comes from. */
export interface McpElicitationDetails {
  /** The MCP server's name. */
  readonly server: string;
  /** The registry name of the tool whose call the server is running. */
  readonly tool: string;
  readonly callId: string;
  /** Aborted when the call ends (timeout, cancellation) or the server withdraws the question. */
  readonly signal: AbortSignal;
}

/** The app's answer: `accept` with the form's content (form mode; none in URL mode), `decline` or `cancel`. */
export type McpElicitationAnswer =
  | { readonly action: 'accept'; readonly content?: Readonly<Record<string, string | number | boolean | string[]>> }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

/**
 * Answers a server's question (`request.mode`: `'form'` with `message` and `requestedSchema`, or `'url'` with
 * `message`, `url` and `elicitationId`), for the call whose trusted context is `context`.
 */
export type McpElicitationHandler = (
  request: ElicitRequestParams,
  context: ExecutionContext,
  details: McpElicitationDetails,
) => McpElicitationAnswer | Promise<McpElicitationAnswer>;

/** What the client declares: elicitation (form, with the SDK filling in schema defaults, and URL) only with a handler. */
export function elicitationCapabilities(handler: McpElicitationHandler | undefined): ClientCapabilities {
  return handler ? { elicitation: { form: { applyDefaults: true }, url: {} } } : {};
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Installs the `elicitation/create` handler on `client`. */
export function answerElicitations(
  client: Client,
  server: string,
  handler: McpElicitationHandler,
  validator: jsonSchemaValidator,
  limits: JsonSchemaLimits,
  logger: Logger,
): void {
  client.setRequestHandler('elicitation/create', async (request, ctx): Promise<ElicitResult> => {
    const scope = callOfRequest(client);
    if (scope === undefined) {
      logger.warn(clientMessages.elicitationOutsideCall(server), { server });
      return { action: 'decline' };
    }
    const params = request.params;
    const schema = params.mode === 'url' ? undefined : (params.requestedSchema as JsonSchemaType);
    if (schema !== undefined) {
      const problem = untrustedSchemaProblem(schema, limits);
      if (problem !== undefined) {
        logger.warn(clientMessages.elicitationSchemaRefused(server, problem), { server, tool: scope.invocation.tool });
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `The requested schema was refused: ${problem}`);
      }
    }
    const { invocation } = scope;
    const answer: unknown = await handler(params, invocation.context, {
      server,
      tool: invocation.tool,
      callId: invocation.callId,
      signal: AbortSignal.any([invocation.signal, ctx.mcpReq.signal]),
    });
    const refusal = answerProblem(answer, params.mode === 'url' ? 'url' : 'form', schema, validator);
    if (refusal === undefined) return answer as ElicitResult;
    const error = new McpElicitationError(
      refusal.kind === 'schema'
        ? clientMessages.elicitationAnswerRefused(server, refusal.detail)
        : clientMessages.elicitationAnswerMalformed(server, refusal.detail),
      server,
    );
    logger.warn(error.message, { server, tool: invocation.tool, callId: invocation.callId });
    scope.refused = error;
    scope.abort.abort(error);
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      'The client refused its own answer (see its logs); nothing was sent.',
    );
  });
}

function answerProblem(
  answer: unknown,
  mode: 'form' | 'url',
  schema: JsonSchemaType | undefined,
  validator: jsonSchemaValidator,
): { readonly kind: 'shape' | 'schema'; readonly detail: string } | undefined {
  if (!isPlainObject(answer)) return { kind: 'shape', detail: 'onElicitation did not return an object' };
  const action = answer.action;
  if (action !== 'accept' && action !== 'decline' && action !== 'cancel')
    return { kind: 'shape', detail: `its action is ${JSON.stringify(action)}, not "accept", "decline" or "cancel"` };
  const keys = Object.keys(answer).filter((key) => key !== 'action' && key !== 'content');
  if (keys.length > 0) return { kind: 'shape', detail: `it has unexpected fields: ${keys.join(', ')}` };
  if (action !== 'accept' || mode === 'url') {
    return answer.content === undefined
      ? undefined
      : { kind: 'shape', detail: `a ${mode === 'url' ? 'URL-mode answer' : `"${action}"`} carries no content` };
  }
  const content = answer.content ?? {};
  if (!isPlainObject(content)) return { kind: 'shape', detail: 'its content is not an object' };
  if (schema === undefined) return undefined;
  const result = validator.getValidator(schema)(content);
  return result.valid ? undefined : { kind: 'schema', detail: result.errorMessage ?? 'invalid' };
}
