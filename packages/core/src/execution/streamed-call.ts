import { InvalidArgumentsError } from '../errors/invalid-arguments-error';
import { ToolCallError } from '../errors/tool-call-error';
import { normalizerOf, type CompiledTool } from '../compile/tool-plan';
import { messages, RELATIVE_DATE_RESOLVER } from '../pipeline/messages';
import { NormalizeState } from '../pipeline/normalizer';
import { CheckedArguments, parseCheckedArguments, type BoundedCheck } from '../pipeline/parse-arguments';
import { redactIssues } from '../pipeline/redaction';
import { canonicalKey } from '../rules/unknown-keys';
import { instantiationIssue, validateWithClassValidator } from '../pipeline/reference-validation';
import { DANGEROUS_KEYS, sanitizeArguments } from '../pipeline/sanitize';
import type { ToolCompiler } from '../registry/tool-compiler';
import type { ToolRegistry } from '../registry/tool-registry';
import type { ExecutionContext, ToolErrorPayload, Transformation, ValidationIssue } from '../types/execution';
import { dtoForSchema } from '../validation/synthesize-dto';
import { resolveCall } from './call-resolution';
import { PreparationFailure } from './prepare-arguments';
import { withoutSensitiveEcho } from './sensitive-errors';

/**
 * One top-level argument of a streamed call, checked as soon as the model finished writing it.
 * - `checked`: the value the handler will get for it (a `Date` for a date-time of a class command, a DTO instance for a
 *   nested object), with the changes made to it; `undefined` when the value means "absent" (a null for an optional
 *   parameter).
 * - `invalid`: refused by its rule; the call will be refused with this issue (among others).
 * - `deferred`: decided only with the whole call (a key whose reading depends on the other keys, a context field, a
 *   field filled from the conversation); the call's result says what became of it.
 */
export type StreamedField =
  | {
      readonly status: 'checked';
      /** The parameter's name (the key as the tool declares it, whatever spelling the model used). */
      readonly path: string;
      readonly value: unknown;
      readonly transformations: readonly Transformation[];
    }
  | { readonly status: 'invalid'; readonly path: string; readonly error: ToolErrorPayload }
  | { readonly status: 'deferred'; readonly path: string };

/**
 * A call whose arguments are still arriving: its tool resolved (steps 1 and 2 of the executor), and a check of each
 * complete top-level field by the tool's compiled plan (the rules step 4 and the DTO step 6 run, on that field alone).
 * A field checked here holds, in the complete call, the value shown; rules across fields (cross-field checks, a
 * second spelling of one key, required parameters) are decided by the whole call.
 */
export type StreamedCall =
  | {
      readonly ok: true;
      readonly tool: string;
      /** The name resolution's change, if any (`tool-name-case`, ...). */
      readonly transformations: readonly Transformation[];
      /** Checks one complete top-level field (`key` as the model wrote it). A promise only when a rule is asynchronous. */
      field(key: string, value: unknown): StreamedField | Promise<StreamedField>;
      /**
       * Checks one complete top-level field given as the text of its value in the arguments text (`"a\\nb"`, `[1, 2]`):
       * read by the executor's own reader (step 3, with its repairs and its refusals of lost information), then
       * checked as `field` does.
       */
      fieldText(key: string, text: string): StreamedField | Promise<StreamedField>;
    }
  | { readonly ok: false; readonly tool: string; readonly error: ToolErrorPayload };

/** Steps 1 and 2 for a streamed call's name, and its field checker (`PersonaToolExecutor.streamedCall`). */
export function streamedCall(
  registry: ToolRegistry,
  compiler: ToolCompiler,
  name: string,
  context: ExecutionContext,
): StreamedCall {
  const resolved = resolveCall(registry, compiler, { id: '', name, arguments: {} }, context);
  if (resolved instanceof PreparationFailure)
    return { ok: false, tool: resolved.tool, error: resolved.error.toPayload() };
  const checker = new FieldChecker(resolved.compiled, resolved.tool, registry.has(RELATIVE_DATE_RESOLVER), context);
  return {
    ok: true,
    tool: resolved.tool,
    transformations: resolved.transformations,
    field: (key, value) => checker.check(key, value),
    fieldText: (key, text) => checker.checkText(key, text),
  };
}

class FieldChecker {
  constructor(
    private readonly compiled: CompiledTool,
    private readonly tool: string,
    private readonly relativeDateTool: boolean,
    private readonly context: ExecutionContext,
  ) {
    this.readable = new Set(
      compiled.definition.parameters.properties.flatMap((property) =>
        [property.name, ...property.aliases].map((name) => canonicalKey(name)),
      ),
    );
  }

  /** The canonical forms of every parameter's name and aliases: a key with none of them is read by no parameter alone. */
  private readonly readable: ReadonlySet<string>;

  checkText(key: string, text: string): StreamedField | Promise<StreamedField> {
    const { compiled } = this;
    // Before reading the value: a key no parameter can be read from by itself waits for the whole call.
    if (!this.readable.has(canonicalKey(key)) || DANGEROUS_KEYS.has(key)) return { status: 'deferred', path: key };
    let parsed: Record<string, unknown> | CheckedArguments;
    try {
      // The one-member document the field is, read as the executor reads the arguments text (step 3, with the canonical
      // check of this member fused into it as the whole call's check is: a value it accepts is the value as read).
      parsed = parseCheckedArguments(
        `{${JSON.stringify(key)}:${text}}`,
        compiled.policy,
        compiled.settings.limits,
        undefined,
        this.memberCheck(key),
      );
    } catch (error) {
      if (error instanceof ToolCallError) return this.invalidError(key, error);
      throw error;
    }
    if (!(parsed instanceof CheckedArguments)) {
      // Accepted as read: valid and canonical, so sanitizing and normalizing would keep it as it is (the whole call
      // skips them the same way); the DTO step and the developer rules still run.
      const property = compiled.definition.parameters.properties.find((candidate) => candidate.name === key)!;
      if (property.context !== undefined || property.extract !== undefined) return { status: 'deferred', path: key };
      try {
        return this.checkTyped(key, parsed[key], []);
      } catch (error) {
        if (error instanceof ToolCallError) return this.invalidError(key, error);
        throw error;
      }
    }
    if (!Object.prototype.hasOwnProperty.call(parsed.value, key)) return { status: 'deferred', path: key };
    const checked = this.check(key, parsed.value[key]);
    if (parsed.transformations.length === 0) return checked;
    const read = parsed.transformations;
    const withRead = (field: StreamedField): StreamedField =>
      field.status === 'checked' ? { ...field, transformations: [...read, ...field.transformations] } : field;
    return checked instanceof Promise ? checked.then(withRead) : withRead(checked);
  }

  /**
   * The tool's canonical check on the one member `key` of a one-member document (`undefined`: none to run, the
   * reference path or the fast path switched off): what `parseCheckedArguments` takes as the check.
   */
  private memberCheck(key: string): BoundedCheck | undefined {
    const { compiled } = this;
    const check = compiled.check;
    if (check === undefined || compiled.reference || compiled.settings.canonicalFastPath === false) return undefined;
    return {
      accept: (value) => check.acceptMember(key, (value as Record<string, unknown>)[key]),
      get keysAndStrings() {
        return check.keysAndStrings;
      },
    };
  }

  check(key: string, value: unknown): StreamedField | Promise<StreamedField> {
    try {
      return this.checkOrThrow(key, value);
    } catch (error) {
      if (error instanceof ToolCallError) return this.invalidError(key, error);
      throw error;
    }
  }

  private checkOrThrow(key: string, value: unknown): StreamedField | Promise<StreamedField> {
    if (DANGEROUS_KEYS.has(key)) return { status: 'deferred', path: key };
    const { compiled } = this;
    const { limits } = compiled.settings;
    const plain: Record<string, unknown> = {};
    plain[key] = value;
    // The executor's own steps 3b and 4, on this one field (sanitize throws its typed refusal for a value too deep).
    const sanitized = sanitizeArguments(plain, limits);
    const state = new NormalizeState({
      timeZone: this.context.timeZone,
      relativeDateTool: this.relativeDateTool,
      limits,
    });
    const output = normalizerOf(compiled)(sanitized.value, '', state) as Record<string, unknown>;
    const properties = compiled.definition.parameters.properties;
    const property =
      properties.find((candidate) => candidate.name === key) ??
      properties.find((candidate) =>
        state.transformations.some(
          (change) =>
            change.path === candidate.name &&
            change.from === key &&
            (change.rule === 'alias-key' || change.rule === 'key-case'),
        ),
      );
    // A key no parameter is read from by itself: what becomes of it depends on the other keys (a near miss of a
    // parameter the call did not send, the keys of a whole call wrapped around the arguments).
    if (property === undefined) return { status: 'deferred', path: key };
    const name = property.name;
    // Trusted context never comes from the model; an extracted field may be filled from the conversation at the end.
    if (property.context !== undefined || property.extract !== undefined) return { status: 'deferred', path: name };
    const issues = state.issues.filter((issue) => within(name, issue.path));
    if (issues.length > 0) return this.invalid(name, issues);
    const transformations = state.transformations.filter((change) => within(name, change.path));
    if (!(name in output)) return { status: 'checked', path: name, value: undefined, transformations };
    return this.checkTyped(name, output[name], transformations);
  }

  /**
   * Step 6 on the field `name` whose value came out of step 4 as `value` (with `transformations`): the DTO instance, the
   * developer rules (or, on the reference path, class-transformer and class-validator).
   */
  private checkTyped(
    name: string,
    value: unknown,
    transformations: readonly Transformation[],
  ): StreamedField | Promise<StreamedField> {
    const { compiled } = this;
    const params: Record<string, unknown> = {};
    params[name] = value;
    const forHandler = compiled.commandClass !== undefined;

    if (compiled.reference) {
      // The reference path's step 6: class-transformer + class-validator on the tool's DTO.
      return validateWithClassValidator(
        dtoForSchema(compiled.definition.parameters),
        params,
        compiled.definition.parameters,
      ).then((validation) => {
        const found = validation.issues.filter((issue) => within(name, issue.path));
        if (found.length > 0) return this.invalid(name, found);
        const value = forHandler ? (validation.instance as Record<string, unknown> | undefined)?.[name] : params[name];
        return { status: 'checked', path: name, value, transformations };
      });
    }
    // The compiled path's step 6: the DTO instance (class commands, and tools whose developer rules read one), then the
    // developer rules on it.
    let instance: Record<string, unknown> | undefined;
    if (compiled.instantiate !== undefined) {
      try {
        instance = compiled.instantiate(params, false) as Record<string, unknown>;
      } catch (error) {
        return this.invalid(name, [instantiationIssue(error)]);
      }
    }
    const shown = forHandler && instance !== undefined ? instance[name] : params[name];
    const checked: StreamedField = { status: 'checked', path: name, value: shown, transformations };
    const rules = compiled.developerRules;
    if (instance === undefined || rules?.kind !== 'check') return checked;
    const found = rules.find(instance, '');
    if (found === undefined) return checked;
    const settle = (all: readonly ValidationIssue[]): StreamedField => {
      const mine = all.filter((issue) => within(name, issue.path));
      return mine.length > 0 ? this.invalid(name, mine) : checked;
    };
    return Array.isArray(found) ? settle(found) : Promise.resolve(found).then(settle);
  }

  /** The refusal the whole call would give for these issues (sensitive values redacted the same way). */
  private invalid(path: string, issues: readonly ValidationIssue[]): StreamedField {
    const shown = redactIssues(issues, this.compiled.sensitivePaths);
    return this.invalidError(
      path,
      new InvalidArgumentsError(messages.invalidArguments(this.tool, shown), { issues: shown }),
    );
  }

  private invalidError(path: string, error: ToolCallError): StreamedField {
    return { status: 'invalid', path, error: withoutSensitiveEcho(error, this.compiled.sensitivePaths).toPayload() };
  }
}

/** Whether `inner` is the path `outer` or a path inside it (`outer.x`, `outer[2]`). */
function within(outer: string, inner: string): boolean {
  if (inner === outer) return true;
  if (inner.length <= outer.length || !inner.startsWith(outer)) return false;
  const next = inner.charCodeAt(outer.length);
  return next === 46 /* . */ || next === 91; /* [ */
}
