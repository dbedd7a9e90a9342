import { BadRequestException, Body, Controller, Get, Headers, HttpCode, Post, Query } from '@nestjs/common';
import { PersonaToolExecutor } from '@toolwright/core';
import { toToolResultMessage } from '@toolwright/providers/openai';
import { ProviderTools } from '@toolwright/nestjs';
import { NotesService } from './services';

/** An OpenAI Chat Completions tool call, as the model produced it. */
interface OpenAIToolCallBody {
  readonly tool_call?: unknown;
}

@Controller()
export class ToolsController {
  constructor(
    private readonly executor: PersonaToolExecutor,
    private readonly providerTools: ProviderTools,
    private readonly notes: NotesService,
  ) {}

  /** The tool definitions in a provider's format: `GET /tools?provider=openai`. */
  @Get('tools')
  tools(@Query('provider') provider = 'openai') {
    return { provider, tools: this.providerTools.definitions(this.providerTools.providerFrom(provider)) };
  }

  /**
   * Runs one OpenAI-shaped tool call (`{ "tool_call": { "id", "type": "function", "function": { "name", "arguments" } } }`).
   * The session is the caller's (the agent engine's `X-Session-Id` header), never the model's arguments.
   */
  @Post('tool-calls')
  @HttpCode(200)
  async call(@Body() body: OpenAIToolCallBody, @Headers('x-session-id') sessionId: string | undefined) {
    if (typeof sessionId !== 'string' || sessionId.length === 0)
      throw new BadRequestException('Send the session in the X-Session-Id header.');
    const toolCall = body?.tool_call;
    if (typeof toolCall !== 'object' || toolCall === null || Array.isArray(toolCall)) {
      throw new BadRequestException(
        'The body must be { "tool_call": { "id", "type": "function", "function": { "name", "arguments" } } }.',
      );
    }
    const [call] = this.providerTools.parseCalls('openai', [toolCall]);
    if (call === undefined)
      throw new BadRequestException('tool_call is not a function call (it needs "function": { "name", "arguments" }).');
    const result = await this.executor.execute(call, { sessionId });
    return { result, message: toToolResultMessage(result) };
  }

  /** What the app itself reads: the same store the add_note command writes to. */
  @Get('notes')
  allNotes() {
    return this.notes.all();
  }
}
