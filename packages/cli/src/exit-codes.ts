/** The CLI's exit codes (documented in docs/cli.md and `toolwright --help`). */
export const EXIT_CODES = Object.freeze({
  /** The command did what was asked: definitions printed, lint clean, the call prepared (or ran) ok. */
  ok: 0,
  /** The command ran and found a problem: lint errors, or the call was refused (the model-facing error is printed). */
  problem: 1,
  /** The command could not run: a bad option, an app that does not load, a file that cannot be read. */
  usage: 2,
});
