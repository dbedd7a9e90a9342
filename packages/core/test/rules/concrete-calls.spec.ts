import 'reflect-metadata';
import { Length } from 'class-validator';
import {
  Command,
  DateTime,
  DefinitionError,
  PersonaToolExecutor,
  ToolParam,
  ToolRegistry,
  silentLogger,
  type ToolResult,
} from '@toolwright/core';
import { configureHotTier, DEFAULT_HOT_TIER } from '@toolwright/core/compile/hot-tier';

/**
 * The calls that decided one rule differently by path, each on the first call and after 10,000 calls of the same
 * tool (by then the hot tier has given the tool code of its own), on the default path and the reference path.
 */
class WhenParams {
  @DateTime() when!: Date;
}

@Command({ name: 'at', description: 'Does something at a time', params: WhenParams })
class AtCommand {
  execute(params: WhenParams) {
    return { when: params.when instanceof Date ? params.when.toISOString() : String(params.when) };
  }
}

class NameParams {
  @Length(3, 20) @ToolParam() name!: string;
}

@Command({ name: 'named', description: 'Takes a name', params: NameParams })
class NamedCommand {
  execute(params: NameParams) {
    return { name: params.name };
  }
}

class ContactParams {
  @ToolParam({ format: 'email' }) email!: string;
  @ToolParam({ format: 'uri' }) site!: string;
}

@Command({ name: 'contact', description: 'Saves a contact', params: ContactParams })
class ContactCommand {
  execute(params: ContactParams) {
    return { email: params.email, site: params.site };
  }
}

function registry(): ToolRegistry {
  const tools = ToolRegistry.from([AtCommand, NamedCommand, ContactCommand], { logger: silentLogger });
  tools.registerJsonSchemaTool(
    {
      name: 'at_schema',
      parameters: { type: 'object', properties: { when: { type: 'string', format: 'date-time' } }, required: ['when'] },
    },
    (params) => params,
  );
  tools.registerJsonSchemaTool(
    {
      name: 'union_length',
      parameters: {
        type: 'object',
        properties: { v: { anyOf: [{ type: 'string', minLength: 3 }, { type: 'integer' }] } },
        required: ['v'],
      },
    },
    (params) => params,
  );
  tools.registerJsonSchemaTool(
    {
      name: 'plain_length',
      parameters: { type: 'object', properties: { v: { type: 'string', minLength: 3 } }, required: ['v'] },
    },
    (params) => params,
  );
  tools.registerJsonSchemaTool(
    {
      name: 'contact_schema',
      parameters: {
        type: 'object',
        properties: { email: { type: 'string', format: 'email' }, site: { type: 'string', format: 'uri' } },
        required: ['email', 'site'],
      },
    },
    (params) => params,
  );
  return tools;
}

jest.setTimeout(120_000);

const PATHS = ['compiled', 'reference'] as const;

function executor(path: (typeof PATHS)[number]): PersonaToolExecutor {
  return new PersonaToolExecutor(registry(), { logger: silentLogger, telemetry: false, validation: path });
}

let calls = 0;
function call(target: PersonaToolExecutor, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return target.execute({ id: `c${calls++}`, name, arguments: JSON.stringify(args) });
}

/** Runs `check` on a fresh executor, then again after 10,000 calls of the same tool with `warm` (valid) arguments. */
async function firstAndAfterWarmUp(
  path: (typeof PATHS)[number],
  name: string,
  warm: Record<string, unknown>,
  check: (target: PersonaToolExecutor) => Promise<void>,
): Promise<void> {
  const target = executor(path);
  await check(target);
  for (let index = 0; index < 10_000; index++) {
    const result = await call(target, name, warm);
    if (!result.ok) throw new Error(`the warm-up call was refused: ${result.error.message}`);
  }
  await new Promise((resolve) => setImmediate(resolve));
  if (path === 'compiled') expect(target.generatedCode(name)).toContain('hot check (running)');
  await check(target);
}

beforeAll(() => configureHotTier(DEFAULT_HOT_TIER));
afterEach(() => configureHotTier(DEFAULT_HOT_TIER));

describe.each(PATHS)('on the %s path, first and after 10,000 calls', (path) => {
  it('refuses a date-time offset of +99:99 (class @DateTime, JSON Schema format date-time); +23:59 passes', async () => {
    for (const name of ['at', 'at_schema']) {
      await firstAndAfterWarmUp(path, name, { when: '2026-01-01T09:00:00+01:00' }, async (target) => {
        const refused = await call(target, name, { when: '2026-01-01T09:00:00+99:99' });
        expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
        if (!refused.ok) expect(refused.error.message).toMatch(/offset is out of range/);
        const kept = await call(target, name, { when: '2026-01-01T09:00:00+23:59' });
        expect(kept.ok).toBe(true);
        const leap = await call(target, name, { when: '2026-12-31T23:59:60Z' });
        expect(leap.ok).toBe(false);
        if (!leap.ok) expect(leap.error.message).toMatch(/leap second/);
      });
    }
  });

  it('counts a JSON-Schema length in code points, in a union and alone', async () => {
    for (const name of ['union_length', 'plain_length']) {
      await firstAndAfterWarmUp(path, name, { v: 'abcd' }, async (target) => {
        expect(await call(target, name, { v: 'a\uFE0Fb' })).toMatchObject({ ok: true, value: { v: 'a\uFE0Fb' } });
        expect(await call(target, name, { v: 'a\u{1F600}' })).toMatchObject({ ok: false });
      });
    }
  });

  it("counts a class's @Length as class-validator does (a variation selector is not counted)", async () => {
    await firstAndAfterWarmUp(path, 'named', { name: 'Ana' }, async (target) => {
      expect(await call(target, 'named', { name: 'a\uFE0Fb' })).toMatchObject({ ok: false });
      expect(await call(target, 'named', { name: 'a\uFE0Fbc' })).toMatchObject({ ok: true });
    });
  });

  it('refuses a non-e-mail and a non-URI with the format named (JSON Schema and @ToolParam({ format }))', async () => {
    for (const name of ['contact', 'contact_schema']) {
      const valid = { email: 'ana@example.com', site: 'https://example.com/ana' };
      await firstAndAfterWarmUp(path, name, valid, async (target) => {
        const email = await call(target, name, { ...valid, email: 'not an email' });
        expect(email.ok).toBe(false);
        if (!email.ok) expect(email.error.message).toMatch(/"email" must be a string in email format/);
        const uri = await call(target, name, { ...valid, site: '::::' });
        expect(uri.ok).toBe(false);
        if (!uri.ok) expect(uri.error.message).toMatch(/"site" must be a string in uri format/);
        expect(await call(target, name, valid)).toMatchObject({ ok: true });
      });
    }
  });
});

describe('formats are enforced or not advertised', () => {
  it('refuses @ToolParam({ format }) with a format toolwright does not check, when the class is read', () => {
    class PhoneParams {
      @ToolParam({ format: 'phone' }) phone!: string;
    }
    @Command({ name: 'phone', description: 'Calls', params: PhoneParams })
    class PhoneCommand {
      execute() {
        return 1;
      }
    }
    expect(() => ToolRegistry.from([PhoneCommand], { logger: silentLogger })).toThrow(DefinitionError);
    expect(() => ToolRegistry.from([PhoneCommand], { logger: silentLogger })).toThrow(/not a format toolwright checks/);
  });

  it("moves a JSON-Schema tool's unknown format into the description, and never exports it", () => {
    const tools = new ToolRegistry({ logger: silentLogger });
    const definition = tools.registerJsonSchemaTool(
      {
        name: 'dial',
        parameters: {
          type: 'object',
          properties: { phone: { type: 'string', format: 'phone', description: 'Who to call.' } },
        },
      },
      () => 1,
    );
    const phone = definition.parameters.properties[0]!.schema;
    expect(phone).toMatchObject({ kind: 'string', description: 'Who to call. Format: phone.' });
    expect(phone).not.toHaveProperty('format');
    expect(phone).toHaveProperty('unenforcedFormat', 'phone');
  });
});
