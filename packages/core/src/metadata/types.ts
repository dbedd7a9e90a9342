import type {
  ArrayOfOptions,
  CommandOptions,
  DateParamOptions,
  FromContextOptions,
  ParamTypeReference,
  ToolParamOptions,
} from '../types/param-options';

/** What `@Command(...)` stores on the class: the options exactly as given. */
export interface CommandMetadata {
  /** The class the decorator was applied to (a subclass without its own `@Command` inherits this record). */
  readonly target: Function;
  readonly options: CommandOptions;
  /** `'tc39'` when `@Command` ran as a standard (TC39) decorator: registration refuses the class with the fix. */
  readonly decoratorSyntax?: 'tc39';
}

interface ParamMetadataBase {
  /** The DTO class the decorator was applied to. */
  readonly target: Function;
  readonly propertyName: string;
}

export interface ToolParamMetadata extends ParamMetadataBase {
  readonly decorator: 'ToolParam';
  readonly options: ToolParamOptions;
}

export interface ArrayOfMetadata extends ParamMetadataBase {
  readonly decorator: 'ArrayOf';
  /** The element type exactly as given (a kind name, a grammar string, or a DTO thunk). */
  readonly items: ParamTypeReference;
  readonly options: ArrayOfOptions;
}

export interface DateTimeMetadata extends ParamMetadataBase {
  readonly decorator: 'DateTime';
  readonly options: DateParamOptions;
}

export interface DateOnlyMetadata extends ParamMetadataBase {
  readonly decorator: 'DateOnly';
  readonly options: DateParamOptions;
}

export interface FromContextMetadata extends ParamMetadataBase {
  readonly decorator: 'FromContext';
  /** The context key exactly as given; checked against the reserved keys when the definition is built. */
  readonly key: string;
  readonly options: FromContextOptions;
}

/** One raw parameter record: what a decorator was given, nothing derived. */
export type ParamMetadata =
  ToolParamMetadata | ArrayOfMetadata | DateTimeMetadata | DateOnlyMetadata | FromContextMetadata;

/** One class-validator rule on a DTO property, as class-validator stored it (read for that class only). */
export interface ValidatorMetadata {
  /** The class the rule was declared on (the DTO or one of its ancestors). */
  readonly target: Function;
  readonly propertyName: string;
  /** class-validator's validation type: `customValidation`, `nestedValidation`, `conditionalValidation`, `isDefined`, `whitelistValidation`. */
  readonly type: string;
  /** The rule's name (`isEmail`, `min`, `isOptional`, ...); `undefined` for unnamed rules (`ValidateNested`, `ValidateIf`). */
  readonly name: string | undefined;
  readonly constraints: readonly unknown[];
  /** `{ each: true }`: the rule applies to each element of an array. */
  readonly each: boolean;
  /** Whether a toolwright decorator applied the rule (rather than a class-validator decorator the developer wrote). */
  readonly appliedByToolwright: boolean;
  /** class-validator's constraint class for `customValidation` rules (what the compiled path runs for rules the IR cannot say). */
  readonly constraintClass?: Function;
  /** The rule's own message option (a string or a function of the validation arguments), when it set one. */
  readonly message?: unknown;
}
