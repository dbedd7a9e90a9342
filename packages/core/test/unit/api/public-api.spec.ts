import 'reflect-metadata';
import * as core from '@toolwright/core';
import * as internal from '@toolwright/core/internal';
import {
  buildObjectSchema,
  DefinitionError,
  PersonaToolExecutor,
  silentLogger,
  ToolParam,
  ToolRegistry,
} from '@toolwright/core';

describe('the public API of @toolwright/core', () => {
  it('keeps the building blocks out of the root and in @toolwright/core/internal', () => {
    const moved = [
      'compileNormalizer',
      'parseArguments',
      'runWithTimeout',
      'getCommandMetadata',
      'SUPPORTED_KEYWORDS',
      'COMMAND_METADATA',
      'sensitivePaths',
      'DEFAULT_TIMEOUT_MS',
      'defaultToolTelemetry',
      'ResolveRelativeDateCommand',
      'RELATIVE_DATE_EXAMPLES',
    ];
    expect(moved.filter((name) => name in core)).toEqual([]);
    expect(moved.filter((name) => !(name in internal))).toEqual([]);
  });

  it("keeps at most 55 value exports at the root besides the later issues' own, and at most 60 in all", () => {
    const values = Object.keys(core);
    // The room left under the cap of 60: exports added after the core API was cut down (tool search and its embedding
    // fusion, Standard Schema, approval, tool-result content parts).
    const laterIssues = [
      'registerToolSearch',
      'SEARCH_TOOLS_TOOL_NAME',
      'toStandardSchema',
      'MemoryApprovalStore',
      'EmbeddingToolSearch',
      'ToolContent',
    ];
    expect(laterIssues.filter((name) => !values.includes(name))).toEqual([]);
    expect(values.length).toBeGreaterThan(40);
    expect(values.filter((name) => !laterIssues.includes(name)).length).toBeLessThanOrEqual(55);
    expect(values.length).toBeLessThanOrEqual(60);
  });

  it('keeps the user API at the root', () => {
    const user = [
      'ToolRegistry',
      'PersonaToolExecutor',
      'Command',
      'ToolParam',
      'runToolLoop',
      'fromJsonSchema',
      'toJsonSchema',
      'DefinitionError',
      'buildCommandDefinition',
      'createToolTelemetry',
      'registerRelativeDateTool',
      'resolveRelativeDate',
    ];
    expect(user.filter((name) => !(name in core))).toEqual([]);
  });
});

describe('coercion: one name for the coercion policy (policy stays as a deprecated alias)', () => {
  function registryWithCount(): ToolRegistry {
    const registry = new ToolRegistry();
    registry.registerJsonSchemaTool(
      { name: 'count', parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } },
      async (params) => params,
    );
    return registry;
  }

  it.each([
    [{ coercion: 'strict' as const }, false],
    [{ policy: 'strict' as const }, false],
    [{ coercion: 'safe' as const, policy: 'strict' as const }, true],
    [{}, true],
  ])('executor options %j: the string "5" for an integer is accepted = %s', async (options, accepted) => {
    const executor = new PersonaToolExecutor(registryWithCount(), { logger: silentLogger, ...options });
    const result = await executor.execute({ id: 'c1', name: 'count', arguments: '{"n": "5"}' }, { sessionId: 's1' });
    expect(result.ok).toBe(accepted);
    if (accepted) expect(result).toMatchObject({ ok: true, value: { n: 5 } });
  });

  it('rejects an invalid executor coercion with a DefinitionError naming the option', () => {
    expect(() => new PersonaToolExecutor(registryWithCount(), { coercion: 'bogus' as never })).toThrow(DefinitionError);
    expect(() => new PersonaToolExecutor(registryWithCount(), { coercion: 'bogus' as never })).toThrow(/coercion/);
  });

  it('@ToolParam({ coercion }) sets the parameter policy exactly as the deprecated { policy } does', () => {
    class WithCoercion {
      @ToolParam({ description: 'How many', type: 'int', coercion: 'strict' })
      count!: number;
    }
    class WithPolicy {
      @ToolParam({ description: 'How many', type: 'int', policy: 'strict' })
      count!: number;
    }
    expect(buildObjectSchema(WithCoercion).properties).toStrictEqual(buildObjectSchema(WithPolicy).properties);
    expect(buildObjectSchema(WithCoercion).properties[0]?.schema).toMatchObject({ kind: 'int', policy: 'strict' });
  });

  it('rejects an invalid @ToolParam coercion with a DefinitionError naming the option', () => {
    expect(() => {
      class Bad {
        @ToolParam({ description: 'How many', type: 'int', coercion: 'bogus' as never })
        count!: number;
      }
      return buildObjectSchema(Bad);
    }).toThrow(/coercion/);
  });
});
