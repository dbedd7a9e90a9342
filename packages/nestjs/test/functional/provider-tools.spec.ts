import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { Body, Controller, Injectable, Module, Param, Post, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Command, silentLogger, ToolParam } from '@toolwright/core';
import { ProviderTools, ToolwrightModule } from '@toolwright/nestjs';

/**
 * `ProviderTools.parseCalls` in a real Nest app over HTTP: a payload the provider's parser cannot read is the 400 that
 * docs/nestjs.md promises (a `BadRequestException` with what to send), never a `TypeError` (a 500).
 */
jest.setTimeout(30_000);

class NoteParams {
  @ToolParam({ description: 'The note' }) text!: string;
}

@Injectable()
@Command({ name: 'add_note', description: 'Adds a note', params: NoteParams })
class AddNote {
  execute(params: NoteParams) {
    return { saved: params.text };
  }
}

/** Hands the body's `payload` to `parseCalls` as a controller that trusts its client's shape would. */
@Controller('parse')
class ParseController {
  constructor(private readonly providerTools: ProviderTools) {}
  @Post(':provider')
  parse(@Param('provider') provider: string, @Body() body: { payload?: unknown }) {
    return this.providerTools.parseCalls(this.providerTools.providerFrom(provider), body.payload);
  }
}

@Module({
  imports: [ToolwrightModule.forRoot({ logger: silentLogger })],
  controllers: [ParseController],
  providers: [AddNote],
})
class AppModule {}

let app: INestApplication;
let base: string;

beforeAll(async () => {
  app = await NestFactory.create(AppModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app.close();
});

async function parse(provider: string, payload: unknown) {
  const response = await fetch(`${base}/parse/${provider}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ payload }),
  });
  return { status: response.status, body: (await response.json()) as { message?: string } & unknown[] };
}

describe('ProviderTools.parseCalls in a real Nest app', () => {
  it('reads a well-formed OpenAI tool call list', async () => {
    const ok = await parse('openai', [
      { id: 'call_1', type: 'function', function: { name: 'add_note', arguments: '{"text":"hi"}' } },
    ]);
    expect(ok.status).toBe(201);
    expect(ok.body).toEqual([expect.objectContaining({ id: 'call_1', name: 'add_note', arguments: '{"text":"hi"}' })]);
  });

  it.each([
    ['openai', [null]],
    ['openai', { tool_calls: [null] }],
    ['openai', { choices: null }],
  ])('%s %j: a 400 saying what to send, not a TypeError', async (provider, payload) => {
    const answer = await parse(provider, payload);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain(`The ${provider} tool calls`);
    expect(answer.body.message).not.toMatch(/Cannot read properties|TypeError/);
  });

  it('a payload of the wrong type is a 400 too (as before)', async () => {
    expect(await parse('openai', 'text')).toMatchObject({ status: 400 });
    expect(await parse('hermes', { text: 1 })).toMatchObject({ status: 400 });
  });
});
