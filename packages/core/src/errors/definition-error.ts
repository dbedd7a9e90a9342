import { ToolwrightError } from './toolwright-error';

export interface DefinitionErrorDetails {
  /** The class, tool or schema where the problem is. */
  readonly target?: string;
  /** The property (or JSON pointer) where the problem is. */
  readonly property?: string;
  /** How to fix it. */
  readonly fix?: string;
}

/** Found at startup, for the developer: a command, DTO, schema or declaration that cannot be used as written. */
export class DefinitionError extends ToolwrightError {
  readonly code = 'DEFINITION_ERROR';
  readonly target?: string;
  readonly property?: string;
  readonly fix?: string;
  /** Every problem this error reports: itself, or each one when several were found at once (see `DefinitionError.all`). */
  readonly problems: readonly DefinitionError[];

  constructor(
    message: string,
    details: DefinitionErrorDetails = {},
    options?: { cause?: unknown; problems?: readonly DefinitionError[] },
  ) {
    super(DefinitionError.render(message, details), options);
    this.target = details.target;
    this.property = details.property;
    this.fix = details.fix;
    this.problems = options?.problems ?? [this];
  }

  /**
   * One error for several problems found in one pass (each with its class, property and fix): the single problem
   * itself, or an error whose message lists them all and whose `problems` holds each. Nested aggregates are flattened.
   */
  static all(errors: readonly DefinitionError[]): DefinitionError {
    const problems = errors.flatMap((error) => error.problems);
    if (problems.length === 1) return problems[0] as DefinitionError;
    return new DefinitionError(
      `${problems.length} definition problems:\n${problems.map((problem) => `- ${problem.message}`).join('\n')}`,
      {},
      { problems },
    );
  }

  private static render(message: string, details: DefinitionErrorDetails): string {
    const where = details.target
      ? details.property
        ? `${details.target}.${details.property}`
        : details.target
      : undefined;
    return [where ? `${where}: ${message}` : message, details.fix ? `Fix: ${details.fix}` : undefined]
      .filter(Boolean)
      .join(' ');
  }
}
