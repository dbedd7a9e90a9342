import 'reflect-metadata';
import { IsOptional } from 'class-validator';
import {
  ArrayOf,
  Command,
  DateTime,
  DefinitionError,
  FromContext,
  NoParams,
  ToolParam,
  ToolRegistry,
  buildCommandDefinition,
  buildObjectSchema,
  silentLogger,
  type Constructor,
} from '@toolwright/core';

/** The DefinitionError a build throws (fails the test when it throws nothing or something else). */
function definitionError(build: () => unknown): DefinitionError {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return error as DefinitionError;
  }
  throw new Error('expected a DefinitionError, nothing was thrown');
}

function dtoError(dto: Constructor): DefinitionError {
  return definitionError(() => buildObjectSchema(dto));
}

const TYPE_CHOICES =
  "'string', 'int', 'float', 'bool', 'date', 'datetime', a grammar such as 'array<string>', 'object' (a free-form map), 'any', or a DTO thunk such as () => Address";

describe('definition errors: thrown when the definition is built, naming class, property and fix', () => {
  describe('type inference', () => {
    it('a number without int or float', () => {
      class CountParams {
        @ToolParam() count!: number;
      }
      const error = dtoError(CountParams);
      expect(error.message).toBe(
        "CountParams.count: is a number, and a number can be an integer or a float. Fix: say `type: 'int'` or `type: 'float'` in the decorator options.",
      );
      expect({ target: error.target, property: error.property, fix: error.fix, code: error.code }).toStrictEqual({
        target: 'CountParams',
        property: 'count',
        fix: "say `type: 'int'` or `type: 'float'` in the decorator options.",
        code: 'DEFINITION_ERROR',
      });
    });

    it('an array without an element type points to @ArrayOf', () => {
      class ListParams {
        @ToolParam() items!: string[];
      }
      expect(dtoError(ListParams).message).toBe(
        "ListParams.items: is an array, and TypeScript metadata only says `Array`, not what the elements are. Fix: use @ArrayOf('string') / @ArrayOf(() => Item), or say the element type: @ToolParam({ type: 'array<string>' }).",
      );
    });

    it('a Date points to @DateTime / @DateOnly', () => {
      class WhenParams {
        @ToolParam() when!: Date;
      }
      expect(dtoError(WhenParams).message).toBe(
        "WhenParams.when: is a Date, and a Date can be a calendar date or a date-time. Fix: use @DateTime() (ISO-8601 with a UTC offset) or @DateOnly() (YYYY-MM-DD), or say `type: 'datetime'` / `type: 'date'`.",
      );
    });

    it('a class without a thunk points to type: () => X', () => {
      class Address {
        @ToolParam() city!: string;
      }
      class ShipParams {
        @ToolParam() address!: Address;
      }
      expect(dtoError(ShipParams).message).toBe(
        'ShipParams.address: is typed as the class Address, and nested DTOs are given as thunks so that class order never matters. Fix: say `type: () => Address` (or @ArrayOf(() => Address) for an array of them).',
      );
    });

    it('an interface, union or any (design:type Object)', () => {
      interface Shape {
        side: number;
      }
      class ShapeParams {
        @ToolParam() shape!: Shape;
        @ToolParam({ required: false }) mixed?: string | number;
      }
      // Both properties are reported by one build (issue 14: every definition error at once).
      const error = dtoError(ShapeParams);
      const problem = (property: string) =>
        `ShapeParams.${property}: has no type toolwright can infer: TypeScript metadata says Object (an interface, a union, \`any\` or \`unknown\`). Fix: add \`type: ...\`: ${TYPE_CHOICES}.`;
      expect(error.message).toBe(`2 definition problems:\n- ${problem('shape')}\n- ${problem('mixed')}`);
      expect(error.problems.map((entry) => [entry.target, entry.property, entry.message])).toEqual([
        ['ShapeParams', 'shape', problem('shape')],
        ['ShapeParams', 'mixed', problem('mixed')],
      ]);
    });

    it('no metadata at all (esbuild, tsx): decorators applied by hand, without design:type', () => {
      class TsxParams {
        title!: string;
      }
      ToolParam({ description: 'The title' })(TsxParams.prototype, 'title');
      expect(dtoError(TsxParams).message).toBe(
        `TsxParams.title: has no type: no \`type\` option was given and there is no \`design:type\` metadata (the code was compiled without emitDecoratorMetadata, as esbuild and tsx do). Fix: add \`type: ...\` to the decorator (${TYPE_CHOICES}), or compile with "emitDecoratorMetadata": true.`,
      );
      // The same class works once the type is said.
      class FixedTsxParams {}
      ToolParam({ type: 'string', description: 'The title' })(FixedTsxParams.prototype, 'title');
      expect(buildObjectSchema(FixedTsxParams).properties).toStrictEqual([
        { name: 'title', schema: { kind: 'string', description: 'The title' }, required: true, aliases: [] },
      ]);
    });
  });

  describe('type references', () => {
    it('a value that is no type', () => {
      class BadParams {}
      ToolParam({ type: 42 as never })(BadParams.prototype, 'value');
      expect(dtoError(BadParams).message).toBe(
        `BadParams.value: has an invalid \`type\`: 42. Fix: use ${TYPE_CHOICES}.`,
      );
    });

    it('a built-in constructor where a type name belongs', () => {
      class CtorParams {}
      ToolParam({ type: Number as never })(CtorParams.prototype, 'count');
      expect(dtoError(CtorParams).message).toBe(
        "CtorParams.count: has `type` Number, a built-in constructor, where a type name was expected. Fix: say `type: 'int' or type: 'float'`.",
      );
      class ThunkParams {}
      ToolParam({ type: (() => String) as never })(ThunkParams.prototype, 'name');
      expect(dtoError(ThunkParams).message).toBe(
        "ThunkParams.name: has `type` String, a built-in constructor, where a type name was expected. Fix: say `type: 'string'`.",
      );
    });

    it('a thunk that returns no class', () => {
      class ThunkParams {}
      ToolParam({ type: (() => undefined) as never })(ThunkParams.prototype, 'nested');
      expect(dtoError(ThunkParams).message).toBe(
        'ThunkParams.nested: has a type thunk that returned undefined, not a DTO class. Fix: return the class from the thunk: `type: () => Address` (and check that the class is defined and exported).',
      );
    });

    it('an unknown grammar type is refused by the compact grammar, naming class and property', () => {
      class GrammarParams {}
      ToolParam({ type: 'integer' })(GrammarParams.prototype, 'count');
      const error = dtoError(GrammarParams);
      expect(error.target).toBe('GrammarParams');
      expect(error.property).toBe('count');
      expect(error.message).toContain('GrammarParams.count');
      expect(error.message).toContain("'int'");
    });

    it('a type that contradicts the TypeScript type', () => {
      class ConflictParams {
        @ToolParam({ type: 'int' }) count!: string;
      }
      expect(dtoError(ConflictParams).message).toBe(
        "ConflictParams.count: is declared as String in TypeScript but @ToolParam describes it as an integer: the handler would receive a value of another type than it declares. Fix: make the property's TypeScript type match (an integer), or change the decorator.",
      );
      class ArrayConflictParams {
        @ArrayOf('string') tags!: string;
      }
      expect(dtoError(ArrayConflictParams).message).toContain(
        'ArrayConflictParams.tags: is declared as String in TypeScript but @ArrayOf describes it as an array',
      );
    });

    it('@ArrayOf without an element type', () => {
      class ArrayParams {
        @ArrayOf(undefined as never) items!: string[];
      }
      expect(dtoError(ArrayParams).message).toBe(
        "ArrayParams.items: @ArrayOf was given no element type. Fix: pass the element type first: @ArrayOf('string', { ... }) or @ArrayOf(() => Item, { ... }).",
      );
    });
  });

  describe('options', () => {
    it.each([
      ['min', { min: 1 }, 'string', 'int and float values'],
      ['minLength', { type: 'int', minLength: 1 }, 'int', 'string values'],
      ['pattern', { type: 'bool', pattern: 'x' }, 'bool', 'string values'],
      ['minItems', { minItems: 1 }, 'string', 'arrays'],
      [
        'enum',
        { type: 'object', enum: ['a'] },
        'object',
        'string, integer, number, boolean, date and date-time values',
      ],
    ] as const)('%s where it does not apply', (option, options, kind, appliesTo) => {
      class OptionParams {}
      ToolParam({ type: 'string', ...options })(OptionParams.prototype, 'value');
      expect(dtoError(OptionParams).message).toBe(
        `OptionParams.value: has \`${option}\`, which does not apply to a ${kind} value (it applies to ${appliesTo}). Fix: remove \`${option}\` or change the parameter's type.`,
      );
    });

    it.each([
      [
        { minLength: -1 },
        'minLength',
        'has an invalid `minLength`: -1 is not a non-negative integer. Fix: give `minLength` as a non-negative integer.',
      ],
      [
        { type: 'int', min: 5, max: 1 },
        'min',
        'has an invalid `min`: min 5 is greater than max 1. Fix: make `min` at most `max`.',
      ],
      [
        { type: 'float', multipleOf: 0 },
        'multipleOf',
        'has an invalid `multipleOf`: 0 is not a number greater than 0. Fix: give `multipleOf` as a number greater than 0.',
      ],
      [
        { type: 'int', max: Infinity },
        'max',
        'has an invalid `max`: Infinity is not a finite number. Fix: give `max` as a finite number.',
      ],
      [
        { policy: 'loose' },
        'policy',
        "has an invalid `policy`: \"loose\" is not 'strict', 'safe' or 'lenient'. Fix: give `policy` as 'strict', 'safe' or 'lenient'.",
      ],
      [
        { required: 'yes' },
        'required',
        'has an invalid `required`: "yes" is not true or false. Fix: give `required` as true or false.',
      ],
      [
        { extract: 'body' },
        'extract',
        "has an invalid `extract`: \"body\" is not 'content' or 'title'. Fix: give `extract` as 'content' or 'title'.",
      ],
      [
        { aliases: 'name' },
        'aliases',
        'has an invalid `aliases`: "name" is not an array of strings. Fix: give `aliases` as an array of strings.',
      ],
      [{ enum: [] }, 'enum', 'has an invalid `enum`: it lists no value. Fix: list at least one allowed value.'],
      [
        { description: 7 },
        'description',
        'has an invalid `description`: 7 is not a string. Fix: give `description` as a string.',
      ],
    ] as const)('%p is refused', (options, _option, message) => {
      class OptionParams {}
      ToolParam({ type: 'string', ...options } as never)(OptionParams.prototype, 'value');
      expect(dtoError(OptionParams).message).toBe(`OptionParams.value: ${message}`);
    });

    it('an invalid pattern, and a RegExp with flags', () => {
      class PatternParams {
        @ToolParam({ pattern: '([a-z' }) code!: string;
      }
      expect(dtoError(PatternParams).message).toMatch(
        /^PatternParams\.code: has a `pattern` that is not a valid regular expression: \/\(\[a-z\/ \(.+\)\. Fix: fix the regular expression \(JSON Schema patterns are ECMAScript regular expressions, unanchored\)\.$/,
      );
      class FlagParams {
        @ToolParam({ pattern: /^abc$/i }) code!: string;
      }
      expect(dtoError(FlagParams).message).toBe(
        'FlagParams.code: has the pattern /^abc$/i; JSON Schema patterns carry no flags, so the model would see another rule than the one validated. Fix: write the pattern without flags (for case-insensitivity use character classes such as [Aa]).',
      );
    });

    it('an enum value of another type, and a default the parameter would not accept', () => {
      class EnumParams {
        @ToolParam({ enum: ['a', 1] as never }) letter!: string;
      }
      expect(dtoError(EnumParams).message).toBe(
        "EnumParams.letter: has the enum value 1, which is not a string. Fix: list only values of the parameter's type in `enum` (or `null` with `nullable: true`).",
      );
      class DefaultParams {
        @ToolParam({ type: 'int', min: 1, default: 0 }) count!: number;
      }
      expect(dtoError(DefaultParams).message).toBe(
        'DefaultParams.count: has the default 0, which is not a valid value (expected an integer). Fix: give a default that the parameter itself would accept, or remove it.',
      );
    });

    it('an alias that another property uses as name or alias', () => {
      class AliasParams {
        @ToolParam({ aliases: ['title'] }) name!: string;
        @ToolParam() title!: string;
      }
      expect(dtoError(AliasParams).message).toBe(
        "AliasParams.name: has the alias 'title', which is also the name or an alias of the property 'title'. Fix: give every property names and aliases that no other property of the same DTO uses.",
      );
      class SharedAliasParams {
        @ToolParam({ aliases: ['q'] }) question!: string;
        @ToolParam({ aliases: ['q'] }) query!: string;
      }
      expect(dtoError(SharedAliasParams).message).toContain(
        "SharedAliasParams.query: has the alias 'q', which is also the name or an alias of the property 'question'.",
      );
    });

    it('two toolwright decorators on one property', () => {
      class TwiceParams {
        @ToolParam({ description: 'When' })
        @DateTime()
        when!: string;
      }
      expect(dtoError(TwiceParams).message).toBe(
        'TwiceParams.when: carries more than one toolwright parameter decorator (@DateTime, @ToolParam). Fix: keep one: every decorator takes the common options (description, required, default, aliases, ...), e.g. @DateTime({ description }).',
      );
    });

    it('an unknown context key', () => {
      class ContextParams {
        @FromContext('tenant_id' as never) tenant?: string;
      }
      expect(dtoError(ContextParams).message).toBe(
        "ContextParams.tenant: has @FromContext('tenant_id'), and 'tenant_id' is not a context key. Fix: use one of 'session_id', 'job_id', 'flow_step_id', 'source_url', 'image_url', 'handler_config', 'persona'.",
      );
    });

    it('a property only class-validator knows, with no type to derive', () => {
      class PlainParams {
        @IsOptional() filters?: Record<string, unknown>;
      }
      expect(dtoError(PlainParams).message).toBe(
        `PlainParams.filters: has class-validator rules but no type toolwright can derive from them or from TypeScript metadata (Object). Fix: add @ToolParam({ type: ... }) to the property (${TYPE_CHOICES}), or a class-validator type rule such as @IsString().`,
      );
    });

    it('a reserved property name', () => {
      class ProtoParams {}
      ToolParam({ type: 'string' })(ProtoParams.prototype, '__proto__');
      expect(dtoError(ProtoParams).message).toBe(
        'ProtoParams.__proto__: is a reserved name that cannot be a parameter: every object inherits it from Object.prototype, so class-transformer and class-validator cannot tell it from a value. Fix: rename the parameter.',
      );
    });
  });

  describe('cycles are refused, naming the cycle', () => {
    it('a DTO that contains itself', () => {
      class TreeNode {
        @ToolParam() label!: string;
        @ArrayOf(() => TreeNode, { required: false }) children?: TreeNode[];
      }
      const error = dtoError(TreeNode);
      expect(error.message).toBe(
        "TreeNode: DTO cycle TreeNode.children -> TreeNode: a DTO that refers to itself (directly or through other DTOs) cannot be described to a model as a finite schema. Fix: bound the depth explicitly: declare a separate DTO for each nesting level the tool accepts, or type the recursive property as `type: 'object'` (a free-form map) or `type: 'any'`.",
      );
    });

    it('two DTOs that refer to each other', () => {
      interface PersonShape {
        name: string;
      }
      class Person {
        @ToolParam() name!: string;
        @ToolParam({ type: () => Company, required: false }) employer?: object;
      }
      class Company {
        @ToolParam({ type: () => Person }) owner!: PersonShape;
      }
      expect(dtoError(Person).message).toContain('DTO cycle Person.employer -> Company.owner -> Person:');
      // The failed build caches nothing; a bounded version builds.
      class Leaf {
        @ToolParam() name!: string;
      }
      class Root {
        @ToolParam({ type: () => Leaf }) child!: Leaf;
      }
      expect(buildObjectSchema(Root).properties[0]?.schema).toMatchObject({ kind: 'object', name: 'Leaf' });
    });
  });

  describe('commands', () => {
    class Params {
      @ToolParam() question!: string;
    }

    it('a class without @Command, and something that is no class', () => {
      class PlainCommand {
        execute() {
          return 1;
        }
      }
      expect(definitionError(() => buildCommandDefinition(PlainCommand)).message).toBe(
        "PlainCommand: is not decorated with @Command. Fix: add @Command({ name: 'tool_name', description: '...', params: XParams }) to the class.",
      );
      expect(definitionError(() => new ToolRegistry({ logger: silentLogger }).register(42 as never)).message).toBe(
        'Expected a command class, received 42. Fix: pass the class itself: ToolRegistry.from([ProposeCommand]).',
      );
    });

    it('a missing name, a description that is no string, no execute method', () => {
      @Command({ name: '', description: 'x', params: Params })
      class NamelessCommand {
        execute() {
          return 1;
        }
      }
      expect(definitionError(() => buildCommandDefinition(NamelessCommand)).message).toBe(
        'NamelessCommand.name: @Command has an invalid `name`: "" is not a non-empty string. Fix: give the tool a name: @Command({ name: \'tool_name\', ... }).',
      );
      @Command({ name: 'x', description: undefined as never, params: Params })
      class UndescribedCommand {
        execute() {
          return 1;
        }
      }
      expect(definitionError(() => buildCommandDefinition(UndescribedCommand)).message).toBe(
        'UndescribedCommand.description: @Command has an invalid `description`: undefined is not a string. Fix: describe what the tool does for the model: @Command({ description: "...", ... }).',
      );
      @Command({ name: 'x', description: 'x', params: Params })
      class LazyCommand {}
      expect(definitionError(() => buildCommandDefinition(LazyCommand)).message).toBe(
        'LazyCommand: has no execute(params, invocation) method. Fix: implement `execute(params: XParams, invocation: ToolInvocationContext)` on the command class.',
      );
    });

    it('no parameter DTO: no `params` and no parameter metadata on execute', () => {
      @Command({ name: 'decision/propose', description: 'Propose' })
      class ProposeCommand {
        execute(params: Params) {
          return params.question;
        }
      }
      expect(definitionError(() => buildCommandDefinition(ProposeCommand)).message).toBe(
        'ProposeCommand: has no parameter DTO: @Command was given no `params`, and TypeScript emitted no parameter types for execute (it does so only when execute carries a decorator and the compiler has emitDecoratorMetadata). Fix: name the DTO: @Command({ ..., params: ProposeParams }).',
      );
    });

    it('a parameter type that is no DTO class', () => {
      const Logged: MethodDecorator = () => undefined;
      @Command({ name: 'echo', description: 'Echo' })
      class EchoCommand {
        @Logged
        execute(params: { text: string }) {
          return params.text;
        }
      }
      expect(definitionError(() => buildCommandDefinition(EchoCommand)).message).toBe(
        'EchoCommand: has the parameter type Object, which is not a DTO class. Fix: declare a DTO class with decorated properties and name it: @Command({ ..., params: EchoParams }).',
      );
      @Command({ name: 'echo', description: 'Echo', params: 'EchoParams' as never })
      class StringParamsCommand {
        execute() {
          return 1;
        }
      }
      expect(definitionError(() => buildCommandDefinition(StringParamsCommand)).message).toBe(
        'StringParamsCommand: has the parameter type "EchoParams", which is not a DTO class. Fix: declare a DTO class with decorated properties and name it: @Command({ ..., params: StringParamsParams }).',
      );
    });

    it.each([
      [{ timeoutMs: -1 }, 'timeoutMs', '-1 is not a positive number of milliseconds'],
      [{ slowCallMs: 'fast' }, 'slowCallMs', '"fast" is not a positive number of milliseconds'],
      [{ retries: 1.5 }, 'retries', '1.5 is not a non-negative integer'],
      [{ coercion: 'loose' }, 'coercion', "\"loose\" is not 'strict', 'safe' or 'lenient'"],
      [{ tags: ['ok', ''] }, 'tags', '["ok",""] is not an array of non-empty strings'],
      [{ permissions: 'admin' }, 'permissions', '"admin" is not an array of non-empty strings'],
      [{ aliases: [1] }, 'aliases', '[1] is not an array of non-empty strings'],
      [{ title: 3 }, 'title', '3 is not a string'],
      [
        { annotations: { readOnly: true } },
        'annotations',
        '{"readOnly":true} is not an object of boolean hints (readOnlyHint, destructiveHint, idempotentHint, openWorldHint)',
      ],
    ] as const)('invalid tool option %p', (options, option, problem) => {
      @Command({ name: 'tool', description: 'Tool', params: Params, ...(options as object) })
      class OptionCommand {
        execute() {
          return 1;
        }
      }
      const error = definitionError(() => buildCommandDefinition(OptionCommand));
      expect(error.message).toMatch(new RegExp(`^OptionCommand\\.${option}: @Command has an invalid \`${option}\`: `));
      expect(error.message).toContain(problem);
      expect(error.property).toBe(option);
    });
  });

  it('decorating never throws for these mistakes: the class is only refused when built (so class order never matters)', () => {
    expect(() => {
      class LaterParams {
        @ToolParam() count!: number;
        @ToolParam({ type: 'array<nope>' }) bad!: string[];
        @FromContext('nope' as never) nope?: string;
      }
      return LaterParams;
    }).not.toThrow();
  });
});

describe('definition errors: all at once', () => {
  it('ToolRegistry.from reports every problem of every command (class, property, fix), nested DTOs included', () => {
    class Inner {
      @ToolParam() loose!: unknown;
    }
    class FirstParams {
      @ToolParam() a!: unknown;
      @ToolParam({ type: 'int' }) fine!: number;
      @ToolParam({ type: () => Inner }) inner!: Inner;
    }
    @Command({ name: 'first', description: 'First', params: FirstParams })
    class FirstCommand {
      execute() {
        return 1;
      }
    }
    class SecondParams {
      @ToolParam() b!: unknown;
    }
    @Command({ name: 'second', description: 'Second', params: SecondParams })
    class SecondCommand {
      execute() {
        return 2;
      }
    }
    const error = definitionError(() => ToolRegistry.from([FirstCommand, SecondCommand], { logger: silentLogger }));
    expect(error.problems.map((problem) => [problem.target, problem.property]).sort()).toEqual([
      ['FirstParams', 'a'],
      ['Inner', 'loose'],
      ['SecondParams', 'b'],
    ]);
    expect(error.problems.every((problem) => problem.fix !== undefined && problem.fix.length > 0)).toBe(true);
    expect(error.message.split('\n')[0]).toBe('3 definition problems:');
    for (const where of ['FirstParams.a: ', 'Inner.loose: ', 'SecondParams.b: '])
      expect(error.message).toContain(`\n- ${where}`);
  });

  it('a DTO with no decorated property is a warning (NoParams says a tool takes no arguments)', () => {
    class Forgotten {
      note?: string;
    }
    @Command({ name: 'forgot', description: 'Forgot the decorators', params: Forgotten })
    class ForgotCommand {
      execute() {
        return 'ok';
      }
    }
    @Command({ name: 'clock', description: 'The time', params: NoParams })
    class ClockCommand {
      execute() {
        return 'now';
      }
    }
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (message: string) => void warnings.push(message) };
    const registry = ToolRegistry.from([ForgotCommand, ClockCommand], { logger });
    expect(registry.size).toBe(2);
    expect(warnings).toEqual([
      'Tool "forgot" (class ForgotCommand): its parameter DTO Forgotten has no decorated property, so the tool takes no arguments. ' +
        'If it should take some, decorate them (@ToolParam, @ArrayOf, ...); if it takes none, use `params: NoParams`.',
    ]);
  });
});
