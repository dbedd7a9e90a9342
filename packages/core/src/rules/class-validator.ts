/**
 * class-validator's rules, by the name class-validator gives each, and what toolwright reads of them: one table, read
 * by the IR build (`schema/validator-facts.ts`: the kind a rule implies), by the compiled path's developer-rules plan
 * (`pipeline/developer-rules.ts`: the rules the IR states exactly are not run again) and by the reference path
 * (`pipeline/reference-validation.ts`: the issue rule a failure is reported as, the same on both paths).
 */

/** A type implied by a class-validator rule. */
export type ImpliedKind = 'string' | 'int' | 'float' | 'bool' | 'object';

interface ClassValidatorRule {
  /** The issue rule a failure of this rule is reported as (`minimum`, `format`, ...): a known rule's own message. */
  readonly issue?: string;
  /** The IR states the rule exactly (a type, a bound, a length, an enum, an item count): the compiled path checks it. */
  readonly captured?: true;
  /** The kind of value the rule implies when nothing else states one. */
  readonly kind?: ImpliedKind;
}

const TYPE = { issue: 'type', captured: true } as const;

const RULES: Readonly<Record<string, ClassValidatorRule>> = {
  isString: { ...TYPE, kind: 'string' },
  isInt: { ...TYPE, kind: 'int' },
  isNumber: { ...TYPE, kind: 'float' },
  isBoolean: { ...TYPE, kind: 'bool' },
  isObject: { ...TYPE, kind: 'object' },
  isArray: TYPE,
  nestedValidation: { issue: 'type' },
  unknownValue: { issue: 'type' },
  matchesSchema: { issue: 'type' },
  isDateString: { issue: 'format', kind: 'string' },
  isIso8601: { issue: 'format', kind: 'string' },
  isDateOnly: { issue: 'format' },
  isOffsetDateTime: { issue: 'format' },
  // With default options `@IsEmail()` and `@IsUUID()` are formats (`rules/validator-js.ts`, `formatMeantBy`).
  isEmail: { issue: 'format', kind: 'string' },
  isUrl: { issue: 'format' },
  isUuid: { issue: 'format', kind: 'string' },
  isFormat: { issue: 'format' },
  isIn: { issue: 'enum', captured: true },
  isEnum: { issue: 'enum', captured: true },
  equals: { issue: 'enum', captured: true },
  min: { issue: 'minimum', captured: true },
  max: { issue: 'maximum', captured: true },
  isPositive: { captured: true },
  isNegative: { captured: true },
  isDivisibleBy: { captured: true },
  exclusiveMinimum: { issue: 'exclusiveMinimum' },
  exclusiveMaximum: { issue: 'exclusiveMaximum' },
  multipleOf: { issue: 'multipleOf' },
  minLength: { issue: 'minLength', captured: true },
  maxLength: { issue: 'maxLength', captured: true },
  isLength: { issue: 'length', captured: true },
  arrayMinSize: { issue: 'minItems', captured: true },
  arrayMaxSize: { issue: 'maxItems', captured: true },
  arrayNotEmpty: { captured: true },
  arrayUnique: { issue: 'uniqueItems' },
  matches: { issue: 'pattern' },
  whitelistValidation: { issue: 'unknown-key' },
  isDefined: { issue: 'required' },
};

function ruleNamed(name: string): ClassValidatorRule | undefined {
  return Object.hasOwn(RULES, name) ? RULES[name] : undefined;
}

/** The issue rule a failure of class-validator's rule `name` is reported as, or `undefined` for a rule of its own. */
export function issueRuleOf(name: string): string | undefined {
  return ruleNamed(name)?.issue;
}

/** Whether the IR states class-validator's rule `name` exactly (the compiled path checks it; nothing runs it again). */
export function capturedByTheIr(name: string): boolean {
  return ruleNamed(name)?.captured === true;
}

/** The kind of value class-validator's rule `name` implies (`@IsInt()`: an integer), if any. */
export function kindImpliedBy(name: string): ImpliedKind | undefined {
  return ruleNamed(name)?.kind;
}
