const TOOLWRIGHT_ERROR_BRAND = Symbol.for('toolwright.error');

/**
 * The base of every error toolwright throws or returns. The brand (a `Symbol.for` key) makes `isInstance`
 * work across two installed copies of the package, where `instanceof` would not.
 */
export abstract class ToolwrightError extends Error {
  private readonly [TOOLWRIGHT_ERROR_BRAND] = true;
  abstract readonly code: string;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }

  static isInstance(error: unknown): error is ToolwrightError {
    return (
      typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[TOOLWRIGHT_ERROR_BRAND] === true
    );
  }
}
