import 'reflect-metadata';
import { Max, MinLength } from 'class-validator';
import {
  Command,
  DefinitionError,
  ToolParam,
  ToolRegistry,
  buildCommandDefinition,
  definitionFromCompact,
  definitionFromJsonSchema,
  silentLogger,
  type ToolDefinition,
  type ToolOptions,
} from '@toolwright/core';

function definitionError(build: () => unknown): DefinitionError {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return error as DefinitionError;
  }
  throw new Error('expected a DefinitionError, but nothing was thrown');
}

const noop = () => null;

/** Invalid tool options and the problem each is reported with (the same table checks every source). */
const INVALID_OPTIONS = [
  [{ timeoutMs: -5 }, 'timeoutMs', '-5 is not a positive number of milliseconds'],
  [{ coercion: 'bogus' }, 'coercion', "\"bogus\" is not 'strict', 'safe' or 'lenient'"],
  [{ retries: 1.5 }, 'retries', '1.5 is not a non-negative integer'],
  [{ retries: -1 }, 'retries', '-1 is not a non-negative integer'],
  [{ slowCallMs: 0 }, 'slowCallMs', '0 is not a positive number of milliseconds'],
  [{ tags: ['ok', ''] }, 'tags', '["ok",""] is not an array of non-empty strings'],
  [{ queue: { attempts: 0 } }, 'queue', '{"attempts":0} is not an object { attempts?: integer >= 1'],
  [{ annotations: { readOnly: true } }, 'annotations', '{"readOnly":true} is not an object of boolean hints'],
] as const;

describe('finalizeDefinition: one option table for every registration path', () => {
  it.each(INVALID_OPTIONS)('registerJsonSchemaTool refuses %p', (options, option, problem) => {
    const registry = new ToolRegistry({ logger: silentLogger });
    const error = definitionError(() =>
      registry.registerJsonSchemaTool(
        { name: 'remote_tool', parameters: { type: 'object', properties: {} } },
        noop,
        options as unknown as ToolOptions,
      ),
    );
    expect(error.message).toMatch(
      new RegExp(`^remote_tool\\.${option}: registerJsonSchemaTool has an invalid \`${option}\`: `),
    );
    expect(error.message).toContain(problem);
    expect(error.property).toBe(option);
    expect(registry.has('remote_tool')).toBe(false);
  });

  it.each(INVALID_OPTIONS)('registerCompact refuses %p', (options, option, problem) => {
    const registry = new ToolRegistry({ logger: silentLogger });
    const error = definitionError(() =>
      registry.registerCompact(
        { command_name: 'compact_tool', parameters: [{ name: 'q', type: 'string' }] },
        noop,
        options as unknown as ToolOptions,
      ),
    );
    expect(error.message).toMatch(
      new RegExp(`^compact declaration 'compact_tool'\\.${option}: registerCompact has an invalid \`${option}\`: `),
    );
    expect(error.message).toContain(problem);
    expect(registry.has('compact_tool')).toBe(false);
  });

  it.each(INVALID_OPTIONS)('@Command refuses %p with the same problem text', (options, option, problem) => {
    class OptionParams {
      @ToolParam() q!: string;
    }
    @Command({ name: 'decorated_tool', description: 'A tool', params: OptionParams, ...(options as object) })
    class OptionCommand {
      execute() {
        return 1;
      }
    }
    const error = definitionError(() => buildCommandDefinition(OptionCommand));
    expect(error.message).toMatch(new RegExp(`^OptionCommand\\.${option}: @Command has an invalid \`${option}\`: `));
    expect(error.message).toContain(problem);
  });

  it.each(INVALID_OPTIONS)(
    'registerDefinition (a definition built elsewhere) refuses %p',
    (options, option, problem) => {
      const registry = new ToolRegistry({ logger: silentLogger });
      const definition: ToolDefinition = {
        name: 'handmade',
        description: '',
        parameters: { kind: 'object', properties: [], additionalProperties: false },
        options: options as unknown as ToolOptions,
        source: { kind: 'json-schema', schema: {} },
      };
      const error = definitionError(() => registry.registerDefinition(definition, { kind: 'function', handler: noop }));
      expect(error.message).toMatch(
        new RegExp(`^handmade\\.${option}: registerDefinition has an invalid \`${option}\`: `),
      );
      expect(error.message).toContain(problem);
    },
  );

  it('keeps the valid options as a frozen copy, and leaves unknown keys out', () => {
    const tags = ['a'];
    const definition = definitionFromCompact({ command_name: 'c', parameters: [] }, {
      retries: 0,
      tags,
      coercion: 'strict',
      unknown: 1,
    } as ToolOptions);
    expect(definition.options).toStrictEqual({ tags: ['a'], retries: 0, coercion: 'strict' });
    expect(Object.isFrozen(definition.options)).toBe(true);
    expect(Object.isFrozen(definition.options.tags)).toBe(true);
    expect(Object.isFrozen(tags)).toBe(false);
  });
});

describe('finalizeDefinition: contradictory constraints are refused from every source', () => {
  it.each([
    [{ type: 'string', minLength: 5, maxLength: 2 }, 'q', 'minLength 5 is greater than maxLength 2'],
    [{ type: 'integer', minimum: 10, maximum: 1 }, 'q', 'minimum 10 is greater than maximum 1'],
    [{ type: 'number', minimum: 10, maximum: 1 }, 'q', 'minimum 10 is greater than maximum 1'],
    [
      { type: 'array', items: { type: 'string' }, minItems: 3, maxItems: 1 },
      'q',
      'minItems 3 is greater than maxItems 1',
    ],
    [
      { type: 'array', items: { type: 'string', minLength: 4, maxLength: 1 } },
      'q[]',
      'minLength 4 is greater than maxLength 1',
    ],
    [
      { type: 'object', properties: { inner: { type: 'integer', minimum: 2, maximum: 1 } } },
      'q.inner',
      'minimum 2 is greater than maximum 1',
    ],
    [
      {
        allOf: [
          { type: 'integer', minimum: 10 },
          { type: 'integer', maximum: 1 },
        ],
      },
      'q',
      'minimum 10 is greater than maximum 1',
    ],
  ])('a JSON Schema parameter %p', (schema, property, problem) => {
    const declaration = { name: 'remote_tool', parameters: { type: 'object', properties: { q: schema } } };
    const error = definitionError(() => definitionFromJsonSchema(declaration));
    expect(error.message).toBe(
      `remote_tool.${property}: has an invalid \`${problem.split(' ')[0]}\`: ${problem}. Fix: make \`${problem.split(' ')[0]}\` at most \`${problem.split(' ')[5]}\`.`,
    );
    expect(error.property).toBe(property);
    expect(() => new ToolRegistry({ logger: silentLogger }).registerJsonSchemaTool(declaration, noop)).toThrow(
      DefinitionError,
    );
  });

  it('the same constraints on @ToolParam throw too (the decorator check, in the same message style)', () => {
    class LengthParams {
      @ToolParam({ minLength: 5, maxLength: 2 }) q!: string;
    }
    @Command({ name: 'length_tool', description: 'A tool', params: LengthParams })
    class LengthCommand {
      execute() {
        return 1;
      }
    }
    expect(definitionError(() => buildCommandDefinition(LengthCommand)).message).toBe(
      'LengthParams.q: has an invalid `minLength`: minLength 5 is greater than maxLength 2. Fix: make `minLength` at most `maxLength`.',
    );
  });

  it('a decorated bound and a class-validator rule that contradict each other are refused at the final check', () => {
    class MixedParams {
      @Max(1)
      @ToolParam({ type: 'int', min: 10 })
      count!: number;
      @MinLength(8)
      @ToolParam({ maxLength: 3 })
      code!: string;
    }
    @Command({ name: 'mixed_tool', description: 'A tool', params: MixedParams })
    class MixedCommand {
      execute() {
        return 1;
      }
    }
    expect(definitionError(() => buildCommandDefinition(MixedCommand)).message).toBe(
      'MixedCommand.count: has an invalid `minimum`: minimum 10 is greater than maximum 1. Fix: make `minimum` at most `maximum`.',
    );
  });

  it('consistent bounds pass (equal bounds are one valid value)', () => {
    const definition = definitionFromJsonSchema({
      name: 'exact',
      parameters: {
        type: 'object',
        properties: {
          code: { type: 'string', minLength: 3, maxLength: 3 },
          n: { type: 'integer', minimum: 1, maximum: 1 },
        },
      },
    });
    expect(definition.parameters.properties.map((property) => property.schema)).toStrictEqual([
      { kind: 'string', minLength: 3, maxLength: 3 },
      { kind: 'int', minimum: 1, maximum: 1 },
    ]);
  });
});
