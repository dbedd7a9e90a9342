import 'reflect-metadata';
import {
  DefinitionError,
  definitionFromJsonSchema,
  toJsonSchema,
  type Logger,
  type ToolDefinition,
} from '@toolwright/core';
import {
  adapt,
  adaptAll,
  createLintHook,
  fromProviderTool,
  getProvider,
  getProviders,
  lint,
  lintAtStartup,
  lintOrThrow,
  type LintFinding,
} from '@toolwright/providers';
import { canonicalDefinition } from '../support/canonical';
import { seedRegistry } from '../support/seed-commands';

function tool(name: string, parameters: Record<string, unknown>, description = 'A test tool.'): ToolDefinition {
  return definitionFromJsonSchema({ name, description, parameters: { additionalProperties: false, ...parameters } });
}

function recordingLogger(): Logger & { readonly lines: Array<[string, string]> } {
  const lines: Array<[string, string]> = [];
  return {
    lines,
    debug: (message) => lines.push(['debug', message]),
    info: (message) => lines.push(['info', message]),
    warn: (message) => lines.push(['warn', message]),
    error: (message) => lines.push(['error', message]),
  };
}

describe('getProviders / adapt / adaptAll / fromProviderTool', () => {
  it('lists the ten providers with their rules', () => {
    expect(getProviders().map((provider) => provider.id)).toEqual([
      'openai',
      'openai-responses',
      'anthropic',
      'gemini',
      'mistral',
      'ollama',
      'bedrock',
      'cohere',
      'mcp',
      'hermes',
    ]);
    expect(getProvider('anthropic')).toMatchObject({
      module: '@toolwright/providers/anthropic',
      errorChannel: 'is_error',
      argumentsEncoding: 'object',
    });
    expect(getProvider('openai').nameProfile.rule).toBe('^[a-zA-Z0-9_-]{1,64}$');
    expect(() => getProvider('nope' as never)).toThrow(
      /unknown provider "nope".*Fix: use one of openai, openai-responses/,
    );
  });

  it('adapts one tool or many for a provider', () => {
    const anthropicTool = adapt(canonicalDefinition(), 'anthropic');
    expect(anthropicTool.name).toBe('get_calendar_events');
    expect(anthropicTool.input_schema.type).toBe('object');
    const strict = adapt(canonicalDefinition(), 'openai', { strict: true });
    expect(strict.function.strict).toBe(true);
    expect(adaptAll(seedRegistry(), 'gemini').map((declaration) => declaration.name)).toEqual([
      'decision_propose',
      'get_calendar_events',
    ]);
    expect(adaptAll(seedRegistry(), 'mcp').map((definition) => definition.name)).toEqual([
      'decision_propose',
      'get_calendar_events',
    ]);
  });

  it('imports provider tools back, decoding names with the codec', () => {
    const registry = seedRegistry();
    const toolSet = getProvider('bedrock').createToolSet(registry);
    const propose = registry.get('decision/propose') as ToolDefinition;
    const imported = fromProviderTool(adaptAll(registry, 'bedrock')[0] as never, 'bedrock', { codec: toolSet.codec });
    expect(imported.name).toBe('decision/propose');
    // A class's IR carries its DTO and context fields; what the provider sees comes back exactly.
    expect(toJsonSchema(imported)).toEqual(toJsonSchema(propose));
    expect(fromProviderTool(adapt(propose, 'openai'), 'openai').name).toBe('decision_propose');
    expect(fromProviderTool(adapt(propose, 'openai'), 'openai', { name: 'decision/propose' }).name).toBe(
      'decision/propose',
    );
  });
});

describe('lint', () => {
  const byRule = (findings: readonly LintFinding[], rule: string): LintFinding[] =>
    findings.filter((finding) => finding.rule === rule);

  it('reports names per provider with the encoded name as the fix', () => {
    const findings = lint(seedRegistry());
    const names = byRule(findings, 'name-pattern');
    expect(names.map((finding) => finding.provider)).toEqual([
      'openai',
      'openai-responses',
      'anthropic',
      'gemini',
      'mistral',
      'ollama',
      'bedrock',
      'cohere',
      'mcp',
      'hermes',
    ]);
    expect(names[0]).toEqual({
      tool: 'decision/propose',
      provider: 'openai',
      rule: 'name-pattern',
      message:
        '"decision/propose" does not match OpenAI Chat Completions\'s name rule ^[a-zA-Z0-9_-]{1,64}$ (it contains "/")',
      fix: 'nothing to do when you send tools with toolwright: it is sent as "decision_propose" and decoded back; rename the tool to send it unchanged',
      severity: 'info', // the codec handles it
    });
    expect(byRule(lint(seedRegistry(), { names: 'encoded' }), 'name-pattern')).toEqual([]);
  });

  it('reports long names, long descriptions, missing descriptions and the tool count', () => {
    const long = 'a'.repeat(80);
    const definitions = [
      tool(long, { type: 'object', properties: {} }),
      tool('described', { type: 'object', properties: {} }, 'x'.repeat(1100)),
      tool('silent', { type: 'object', properties: {} }, ''),
    ];
    const findings = lint(definitions, { providers: ['openai', 'mcp'] });
    expect(byRule(findings, 'name-length').map((finding) => [finding.tool, finding.provider])).toEqual([
      [long, 'openai'],
    ]);
    expect(byRule(findings, 'name-ambiguous').map((finding) => finding.provider)).toEqual(['openai']);
    expect(byRule(findings, 'description-length')).toEqual([
      {
        tool: 'described',
        provider: 'openai',
        rule: 'description-length',
        message: 'the description has 1100 characters; OpenAI Chat Completions takes at most 1024',
        fix: 'shorten the description and move details into the parameter descriptions',
        severity: 'error',
      },
    ]);
    expect(byRule(findings, 'description-missing').map((finding) => finding.provider)).toEqual(['openai', 'mcp']);
    const many = Array.from({ length: 130 }, (_, index) => tool(`tool_${index}`, { type: 'object', properties: {} }));
    expect(byRule(lint(many, { providers: ['openai', 'gemini'] }), 'tool-count')).toEqual([
      {
        tool: '*',
        provider: 'openai',
        rule: 'tool-count',
        message: '130 tools; OpenAI Chat Completions takes at most 128 per request',
        fix: 'send a relevant subset per request (by persona, tag or a tool-search step)',
        severity: 'error',
      },
    ]);
  });

  it('says, as information, which formats a source stated that toolwright does not enforce', () => {
    const definition = tool('dial', {
      type: 'object',
      properties: {
        phone: { type: 'string', format: 'phone', description: 'Who to call.' },
        email: { type: 'string', format: 'email' },
        backups: { type: 'array', items: { type: 'string', format: 'e164' } },
      },
    });
    const findings = byRule(lint([definition], { providers: ['openai'] }), 'format-not-enforced');
    expect(findings).toEqual([
      {
        tool: 'dial',
        provider: 'openai',
        rule: 'format-not-enforced',
        message:
          'phone: the format "phone" is not one toolwright checks, so it is sent as a hint in the description ("Format: phone."), not as a format',
        fix: 'none needed to send the tool; add a pattern or a length bound if the value must be checked',
        severity: 'info',
      },
      expect.objectContaining({ message: expect.stringMatching(/^backups\[\]: the format "e164" is not one/) }),
    ]);
  });

  it('reports keywords moved into descriptions, as information', () => {
    const findings = byRule(
      lint([canonicalDefinition()], { providers: ['ollama', 'cohere', 'openai'] }),
      'unsupported-keyword',
    );
    expect(findings.map((finding) => [finding.provider, finding.message])).toEqual([
      ['ollama', 'resolved_datetimes[]: format cannot be sent to Ollama /api/chat and was moved into the description'],
      [
        'ollama',
        'max_results: minimum, maximum, default cannot be sent to Ollama /api/chat and were moved into the description',
      ],
      [
        'cohere',
        'max_results: minimum, maximum, default cannot be sent to Cohere v2 and were moved into the description',
      ],
    ]);
    expect(findings.every((finding) => finding.severity === 'info')).toBe(true);
  });

  it('checks strict-mode rules when asked', () => {
    const definitions = [
      tool('free_form', {
        type: 'object',
        properties: { metadata: { type: 'object' }, anything: {} },
        required: ['metadata'],
      }),
      tool('optional_only', { type: 'object', properties: { a: { type: 'string' } } }),
    ];
    const findings = lint(definitions, { providers: ['openai', 'anthropic', 'cohere'], strict: true });
    expect(
      byRule(findings, 'strict-free-form-object').map((finding) => [
        finding.provider,
        finding.tool,
        finding.message.split(' is ')[0],
      ]),
    ).toEqual([
      ['openai', 'free_form', 'metadata'],
      ['anthropic', 'free_form', 'metadata'],
    ]);
    expect(byRule(findings, 'strict-untyped-schema').map((finding) => finding.message)).toEqual([
      'anything.anyOf[0] accepts any value ({}), which strict mode rejects',
    ]);
    expect(byRule(findings, 'strict-required-parameter').map((finding) => finding.tool)).toEqual(['optional_only']);
    expect(
      byRule(lint(definitions, { providers: ['openai', 'anthropic', 'cohere'] }), 'strict-free-form-object'),
    ).toEqual([]);
    const many = Array.from({ length: 25 }, (_, index) =>
      tool(`t${index}`, {
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: ['string', 'integer'] } },
        required: ['a'],
      }),
    );
    expect(
      byRule(lint(many, { providers: ['anthropic'], strict: { anthropic: true } }), 'strict-tool-count'),
    ).toHaveLength(1);
    expect(
      byRule(lint(many, { providers: ['anthropic'], strict: { anthropic: true } }), 'strict-optional-count'),
    ).toHaveLength(1);
    expect(
      byRule(lint(many, { providers: ['anthropic'], strict: { anthropic: true } }), 'strict-union-count'),
    ).toHaveLength(1);
  });

  it('reports Gemini parameter names its parameters schema cannot carry', () => {
    const findings = lint([tool('headers', { type: 'object', properties: { 'x-api-key': { type: 'string' } } })], {
      providers: ['gemini'],
    });
    expect(byRule(findings, 'property-name').map((finding) => finding.message)).toEqual([
      'parameter "x-api-key" does not match Gemini\'s parameter-name rule ^[A-Za-z_][A-Za-z0-9_]{0,63}$',
    ]);
  });

  it('reports codec collisions as errors when names cannot be told apart', () => {
    const findings = lint(
      [tool('same', { type: 'object', properties: {} }), tool('same', { type: 'object', properties: {} })],
      { providers: ['openai'] },
    );
    expect(byRule(findings, 'name-collision')).toHaveLength(1);
    expect(byRule(findings, 'name-collision')[0]?.message).toMatch(/two tools are named "same"/);
  });
});

describe('lintOrThrow and the startup hook', () => {
  const tooLong = (): ToolDefinition[] => [tool('described', { type: 'object', properties: {} }, 'x'.repeat(1100))];

  it('throws a DefinitionError listing the errors, and returns the findings otherwise', () => {
    expect(() => lintOrThrow(tooLong(), { providers: ['openai'] })).toThrow(DefinitionError);
    expect(() => lintOrThrow(tooLong(), { providers: ['openai'] })).toThrow(
      /error openai described description-length: the description has 1100 characters/,
    );
    expect(lintOrThrow(seedRegistry(), { providers: ['openai'] }).map((finding) => finding.rule)).toEqual([
      'name-pattern',
    ]);
  });

  it("logs one summary line with { lint: 'warn' }, every finding at debug, and throws on errors with { lint: 'error' }", () => {
    const logger = recordingLogger();
    const findings = lintAtStartup([...seedRegistry().list(), ...tooLong()], {
      lint: 'warn',
      logger,
      providers: ['openai', 'ollama'],
    });
    expect(findings.length).toBeGreaterThan(0);
    expect(logger.lines.filter(([level]) => level !== 'debug')).toEqual([
      [
        'warn',
        `tool lint: ${seedRegistry().size + 1} tools for openai, ollama: 1 error, 0 warnings, ${findings.length - 1} info (error openai described description-length); each finding at debug level`,
      ],
    ]);
    const debug = logger.lines.filter(([level]) => level === 'debug').map(([, message]) => message);
    expect(debug).toHaveLength(findings.length);
    expect(debug).toContain(
      'tool lint: info openai decision/propose name-pattern: "decision/propose" does not match OpenAI Chat Completions\'s name rule ^[a-zA-Z0-9_-]{1,64}$ (it contains "/") Fix: nothing to do when you send tools with toolwright: it is sent as "decision_propose" and decoded back; rename the tool to send it unchanged',
    );
    expect(debug).toContain(
      'tool lint: error openai described description-length: the description has 1100 characters; OpenAI Chat Completions takes at most 1024 Fix: shorten the description and move details into the parameter descriptions',
    );

    // Only names the codec handles: one info line, nothing at warn (the default logger shows nothing).
    const quiet = recordingLogger();
    lintAtStartup(seedRegistry(), { lint: 'warn', logger: quiet, providers: ['openai'] });
    expect(quiet.lines.filter(([level]) => level !== 'debug').map(([level]) => level)).toEqual(['info']);
    expect(quiet.lines.filter(([level]) => level === 'info')[0]![1]).toMatch(
      /^tool lint: \d+ tools for openai: 0 errors, 0 warnings, \d+ info; each finding at debug level$/,
    );

    const strictLogger = recordingLogger();
    const hook = createLintHook({ lint: 'error', logger: strictLogger, providers: ['openai'] });
    expect(() => hook(tooLong())).toThrow(DefinitionError);
    expect(strictLogger.lines.filter(([level]) => level === 'warn')).toHaveLength(1);
    expect(hook(seedRegistry()).map((finding) => finding.rule)).toEqual(['name-pattern']);
    expect(lintAtStartup(tooLong(), { lint: 'off' })).toEqual([]);
  });
});
