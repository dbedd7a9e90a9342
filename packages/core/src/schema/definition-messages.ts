import { DefinitionError } from '../errors/definition-error';

/**
 * Every definition error the definition build raises (for decorated classes, and the final check of every
 * definition). Each names what is wrong, where
 * (class and property) and how to fix it.
 */

/** Where a problem is: the DTO or command class and, for a parameter, the property. */
export interface DefinitionSite {
  readonly target: string;
  readonly property?: string;
}

const TYPE_CHOICES =
  "'string', 'int', 'float', 'bool', 'date', 'datetime', a grammar such as 'array<string>', 'object' (a free-form map), 'any', or a DTO thunk such as () => Address";

function error(site: DefinitionSite, message: string, fix: string): DefinitionError {
  return new DefinitionError(message, {
    target: site.target,
    ...(site.property !== undefined ? { property: site.property } : {}),
    fix,
  });
}

export const definitionMessages = {
  // ---- parameter types -------------------------------------------------------------------------------
  numberNeedsKind: (site: DefinitionSite) =>
    error(
      site,
      'is a number, and a number can be an integer or a float.',
      "say `type: 'int'` or `type: 'float'` in the decorator options.",
    ),

  arrayNeedsElementType: (site: DefinitionSite) =>
    error(
      site,
      'is an array, and TypeScript metadata only says `Array`, not what the elements are.',
      "use @ArrayOf('string') / @ArrayOf(() => Item), or say the element type: @ToolParam({ type: 'array<string>' }).",
    ),

  dateNeedsDecorator: (site: DefinitionSite) =>
    error(
      site,
      'is a Date, and a Date can be a calendar date or a date-time.',
      "use @DateTime() (ISO-8601 with a UTC offset) or @DateOnly() (YYYY-MM-DD), or say `type: 'datetime'` / `type: 'date'`.",
    ),

  classNeedsThunk: (site: DefinitionSite, className: string) =>
    error(
      site,
      `is typed as the class ${className}, and nested DTOs are given as thunks so that class order never matters.`,
      `say \`type: () => ${className}\` (or @ArrayOf(() => ${className}) for an array of them).`,
    ),

  typeNotInferable: (site: DefinitionSite, designTypeName: string) =>
    error(
      site,
      `has no type toolwright can infer: TypeScript metadata says ${designTypeName} (an interface, a union, \`any\` or \`unknown\`).`,
      `add \`type: ...\`: ${TYPE_CHOICES}.`,
    ),

  noTypeMetadata: (site: DefinitionSite) =>
    error(
      site,
      'has no type: no `type` option was given and there is no `design:type` metadata (the code was compiled without emitDecoratorMetadata, as esbuild and tsx do).',
      `add \`type: ...\` to the decorator (${TYPE_CHOICES}), or compile with "emitDecoratorMetadata": true.`,
    ),

  invalidTypeReference: (site: DefinitionSite, received: string) =>
    error(site, `has an invalid \`type\`: ${received}.`, `use ${TYPE_CHOICES}.`),

  constructorAsType: (site: DefinitionSite, constructorName: string, suggestion: string) =>
    error(
      site,
      `has \`type\` ${constructorName}, a built-in constructor, where a type name was expected.`,
      `say \`type: ${suggestion}\`.`,
    ),

  thunkNotClass: (site: DefinitionSite, received: string) =>
    error(
      site,
      `has a type thunk that returned ${received}, not a DTO class.`,
      'return the class from the thunk: `type: () => Address` (and check that the class is defined and exported).',
    ),

  designTypeConflict: (site: DefinitionSite, designTypeName: string, kind: string, decorator: string) =>
    error(
      site,
      `is declared as ${designTypeName} in TypeScript but ${decorator} describes it as ${kind}: the handler would receive a value of another type than it declares.`,
      `make the property's TypeScript type match (${kind}), or change the decorator.`,
    ),

  missingArrayElementType: (site: DefinitionSite) =>
    error(
      site,
      '@ArrayOf was given no element type.',
      "pass the element type first: @ArrayOf('string', { ... }) or @ArrayOf(() => Item, { ... }).",
    ),

  // ---- options ------------------------------------------------------------------------------------------
  optionNotApplicable: (site: DefinitionSite, option: string, kind: string, appliesTo: string) =>
    error(
      site,
      `has \`${option}\`, which does not apply to a ${kind} value (it applies to ${appliesTo}).`,
      `remove \`${option}\` or change the parameter's type.`,
    ),

  invalidOption: (site: DefinitionSite, option: string, problem: string, fix: string) =>
    error(site, `has an invalid \`${option}\`: ${problem}.`, fix),

  invalidPattern: (site: DefinitionSite, pattern: string, reason: string) =>
    error(
      site,
      `has a \`pattern\` that is not a valid regular expression: /${pattern}/ (${reason}).`,
      'fix the regular expression (JSON Schema patterns are ECMAScript regular expressions, unanchored).',
    ),

  patternFlags: (site: DefinitionSite, pattern: string, flags: string) =>
    error(
      site,
      `has the pattern /${pattern}/${flags}; JSON Schema patterns carry no flags, so the model would see another rule than the one validated.`,
      'write the pattern without flags (for case-insensitivity use character classes such as [Aa]).',
    ),

  enumValueMismatch: (site: DefinitionSite, value: string, expected: string) =>
    error(
      site,
      `has the enum value ${value}, which is not ${expected}.`,
      "list only values of the parameter's type in `enum` (or `null` with `nullable: true`).",
    ),

  defaultMismatch: (site: DefinitionSite, value: string, expected: string) =>
    error(
      site,
      `has the default ${value}, which is not a valid value (expected ${expected}).`,
      'give a default that the parameter itself would accept, or remove it.',
    ),

  aliasCollision: (site: DefinitionSite, alias: string, otherProperty: string) =>
    error(
      site,
      `has the alias '${alias}', which is also the name or an alias of the property '${otherProperty}'.`,
      'give every property names and aliases that no other property of the same DTO uses.',
    ),

  severalDecorators: (site: DefinitionSite, decorators: readonly string[]) =>
    error(
      site,
      `carries more than one toolwright parameter decorator (${decorators.map((name) => `@${name}`).join(', ')}).`,
      'keep one: every decorator takes the common options (description, required, default, aliases, ...), e.g. @DateTime({ description }).',
    ),

  unknownContextKey: (site: DefinitionSite, key: string, allowed: readonly string[]) =>
    error(
      site,
      `has @FromContext('${key}'), and '${key}' is not a context key.`,
      `use one of ${allowed.map((name) => `'${name}'`).join(', ')}.`,
    ),

  noValidatorType: (site: DefinitionSite, designTypeName: string) =>
    error(
      site,
      `has class-validator rules but no type toolwright can derive from them or from TypeScript metadata (${designTypeName}).`,
      `add @ToolParam({ type: ... }) to the property (${TYPE_CHOICES}), or a class-validator type rule such as @IsString().`,
    ),

  cycle: (path: readonly string[]) =>
    new DefinitionError(
      `DTO cycle ${path.join(' -> ')}: a DTO that refers to itself (directly or through other DTOs) cannot be described to a model as a finite schema.`,
      {
        target: path[0]?.split('.')[0] ?? 'DTO',
        fix: "bound the depth explicitly: declare a separate DTO for each nesting level the tool accepts, or type the recursive property as `type: 'object'` (a free-form map) or `type: 'any'`.",
      },
    ),

  // ---- commands --------------------------------------------------------------------------------------------
  notACommand: (target: string) =>
    new DefinitionError('is not decorated with @Command.', {
      target,
      fix: "add @Command({ name: 'tool_name', description: '...', params: XParams }) to the class.",
    }),

  notAClass: (received: string) =>
    new DefinitionError(`Expected a command class, received ${received}.`, {
      fix: 'pass the class itself: ToolRegistry.from([ProposeCommand]).',
    }),

  invalidCommandOption: (target: string, option: string, problem: string, fix: string): DefinitionError =>
    definitionMessages.invalidToolOption('@Command', target, option, problem, fix),

  /** A tool option that fails the shared option table, named with where it was given (`@Command`, `registerJsonSchemaTool`, `registerCompact`). */
  invalidToolOption: (origin: string, target: string, option: string, problem: string, fix: string): DefinitionError =>
    new DefinitionError(`${origin} has an invalid \`${option}\`: ${problem}.`, { target, property: option, fix }),

  toolOptionProblem: (target: string, option: string, problem: string, fix: string) =>
    new DefinitionError(problem, { target, property: option, fix }),

  noExecute: (target: string) =>
    new DefinitionError('has no execute(params, invocation) method.', {
      target,
      fix: 'implement `execute(params: XParams, invocation: ToolInvocationContext)` on the command class.',
    }),

  noParamsDto: (target: string, suggestedDto: string) =>
    new DefinitionError(
      'has no parameter DTO: @Command was given no `params`, and TypeScript emitted no parameter types for execute (it does so only when execute carries a decorator and the compiler has emitDecoratorMetadata).',
      { target, fix: `name the DTO: @Command({ ..., params: ${suggestedDto} }).` },
    ),

  paramsNotAClass: (target: string, received: string, suggestedDto: string) =>
    new DefinitionError(`has the parameter type ${received}, which is not a DTO class.`, {
      target,
      fix: `declare a DTO class with decorated properties and name it: @Command({ ..., params: ${suggestedDto} }).`,
    }),

  reservedPropertyName: (target: string, property: string) =>
    new DefinitionError(
      'is a reserved name that cannot be a parameter: every object inherits it from Object.prototype, so class-transformer and class-validator cannot tell it from a value.',
      {
        target,
        property,
        fix: 'rename the parameter.',
      },
    ),
};
