import 'reflect-metadata';
import { IsEmail, MaxLength } from 'class-validator';
import { ArrayOf, Command, PersonaToolExecutor, silentLogger, ToolRegistry, type ToolResult } from '@toolwright/core';

/**
 * A rule applied to each item names the index and the value received, on the default (compiled) path and on the
 * reference path alike: class-validator rules with `{ each: true }` and the IR's own item constraints.
 */

class InviteParams {
  @ArrayOf('string', { minItems: 1, maxItems: 20 })
  @IsEmail({}, { each: true })
  attendees!: string[];

  @ArrayOf('string', { required: false })
  @MaxLength(5, { each: true })
  tags?: string[];

  @ArrayOf('string', { required: false, sensitive: true })
  @IsEmail({}, { each: true })
  backups?: string[];
}

@Command({ name: 'invite', description: 'Invite people', params: InviteParams })
class Invite {
  execute(params: InviteParams): number {
    return params.attendees.length;
  }
}

const PATHS = ['compiled', 'reference'] as const;

async function refusal(validation: (typeof PATHS)[number], args: unknown): Promise<string> {
  const registry = new ToolRegistry({ logger: silentLogger });
  registry.register(Invite);
  const executor = new PersonaToolExecutor(registry, { logger: silentLogger, validation, telemetry: false });
  const result: ToolResult = await executor.execute({ id: 'c', name: 'invite', arguments: JSON.stringify(args) });
  if (result.ok) throw new Error(`accepted: ${JSON.stringify(args)}`);
  return result.error.message;
}

describe('per-item errors', () => {
  it.each(PATHS)('name the index and the value of the first failing item of an `each` rule (%s path)', async (path) => {
    const message = await refusal(path, { attendees: ['a@example.com', 'not-an-email', 'also not'] });
    expect(message).toContain(
      '- "attendees[1]" must be a string in email format, but received "not-an-email". Example: "name@example.com".',
    );
    expect(message).not.toContain('an array of 3 items');
    expect(await refusal(path, { attendees: ['a@example.com'], tags: ['ok', 'far too long'] })).toContain(
      '- "tags[1]" must be a string of at most 5 characters, but received "far too long".',
    );
  });

  it.each(PATHS)('redact the value of an item of a sensitive parameter (%s path)', async (path) => {
    const message = await refusal(path, { attendees: ['a@example.com'], backups: ['b@example.com', 'secret-value'] });
    expect(message).toContain('"backups[1]" must be a string in email format');
    expect(message).not.toContain('secret-value');
  });

  it('name the item after 10,000 calls of the same tool too (the tool on the hot tier by then)', async () => {
    const registry = new ToolRegistry({ logger: silentLogger });
    registry.register(Invite);
    const executor = new PersonaToolExecutor(registry, { logger: silentLogger, telemetry: false });
    for (let call = 0; call < 10_000; call++)
      await executor.execute({ id: `c${call}`, name: 'invite', arguments: '{"attendees":["a@example.com"]}' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(executor.generatedCode('invite')).toContain('hot check (running)');
    const result = await executor.execute({
      id: 'last',
      name: 'invite',
      arguments: '{"attendees":["a@example.com","not-an-email"]}',
    });
    expect(result.ok ? '' : result.error.message).toContain(
      '"attendees[1]" must be a string in email format, but received "not-an-email".',
    );
  });

  it('give the same message on both paths', async () => {
    for (const args of [
      { attendees: ['x'] },
      { attendees: ['a@example.com', 'b@example.com', 7] },
      { attendees: ['a@example.com'], tags: ['abcdef'] },
    ]) {
      expect(await refusal('compiled', args)).toBe(await refusal('reference', args));
    }
  });

  it('name the index and the value of an item that breaks an IR item constraint (a JSON-Schema tool)', async () => {
    for (const validation of PATHS) {
      const registry = new ToolRegistry({ logger: silentLogger });
      registry.registerJsonSchemaTool(
        {
          name: 'tag',
          parameters: {
            type: 'object',
            properties: { labels: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$', maxLength: 8 } } },
            required: ['labels'],
          },
        },
        () => 'done',
      );
      const executor = new PersonaToolExecutor(registry, { logger: silentLogger, validation, telemetry: false });
      const result = await executor.execute({ id: 'c', name: 'tag', arguments: '{"labels":["ok","Not-OK"]}' });
      expect(result.ok ? '' : result.error.message).toContain(
        '"labels[1]" must be a string of at most 8 characters matching /^[a-z]+$/, but received "Not-OK".',
      );
    }
  });
});
