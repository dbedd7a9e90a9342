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

  constructor(message: string, details: DefinitionErrorDetails = {}, options?: { cause?: unknown }) {
    super(DefinitionError.render(message, details), options);
    this.target = details.target;
    this.property = details.property;
    this.fix = details.fix;
  }

  private static render(message: string, details: DefinitionErrorDetails): string {
    const where = details.target ? (details.property ? `${details.target}.${details.property}` : details.target) : undefined;
    return [where ? `${where}: ${message}` : message, details.fix ? `Fix: ${details.fix}` : undefined]
      .filter(Boolean)
      .join(' ');
  }
}
