/** An error as one line for a log (`Name: message`), whatever was thrown. */
export function describeError(error: unknown): string {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    return 'an unprintable error';
  }
}
