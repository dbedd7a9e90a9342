/**
 * The contract every text tool-call dialect implements (docs/text-tool-calls.md). A dialect finds the
 * regions of a model's text that hold calls in its own syntax and reads each call as written; matching names
 * against the tools, typing raw XML-style values by the tool's schema and building `content` are the framework's
 * job (`./parse.ts`), so a dialect never sees the tools, only whether a name is one of them.
 */

/** One call as a dialect wrote it. */
export interface DialectCall {
  /** the tool name as written (matched against the tools later, with the name codec) */
  readonly name: string;
  /** JSON-style dialects: the arguments object exactly as written (values as written, nothing added or dropped).
   *  XML-style dialects: each parameter's raw text, to be typed by the tool's schema (see `rawValues`). */
  readonly arguments: Record<string, unknown>;
  /** true when every value in `arguments` is the raw text of an XML-style parameter (typed later by the schema) */
  readonly rawValues?: boolean;
}

/** One region of the text that belongs to this dialect (removed from `content`). */
export interface DialectBlock {
  /** offset of the region's first character in the text given to `find()` */
  readonly start: number;
  /** offset just past the region's last character */
  readonly end: number;
  readonly calls: readonly DialectCall[];
  /** calls in the region that are cut off or cannot be read without guessing */
  readonly rejected: readonly DialectRefusal[];
}

/** A call in a block that is cut off or cannot be read without guessing. */
export interface DialectRefusal {
  /** the name as the model wrote it, when it got that far */
  readonly name?: string;
  readonly reason: string;
  readonly text: string;
}

/**
 * A refusal with `name` only when there is one. Written as two literals, not a spread of `{ name }` or `{}`: a spread
 * of a conditional object builds a dictionary-mode object several times the size, and a text of many cut-off calls
 * holds one per call.
 */
export function refusal(name: string | undefined, reason: string, text: string): DialectRefusal {
  return name === undefined ? { reason, text } : { name, reason, text };
}

/** A block's refusals when it has none: one frozen list, not a new empty one per block of a text of many calls. */
export const NO_REFUSALS: readonly DialectRefusal[] = Object.freeze([]);

export interface DialectScope {
  /** known tool names (as the model sees them); a dialect without explicit markers (plain JSON, pythonic, ReAct)
   *  uses it to avoid reading prose or examples as calls */
  readonly isToolName: (name: string) => boolean;
  /** Where the region an earlier dialect already claimed around `position` ends, or `position` when none holds it.
   *  A marker-less dialect skips such a region: a block of its own starting there would overlap the earlier
   *  dialect's and be left out, so reading it (often a call another dialect already read) is wasted work. */
  readonly claimedEnd: (position: number) => number;
}

export interface TextDialect {
  /** kebab-case, e.g. 'hermes', 'deepseek-v3', 'glm-4.5' */
  readonly name: string;
  /** every block of this dialect in `text` (reasoning sections are already removed by the caller); [] when none */
  find(text: string, scope: DialectScope): DialectBlock[];
}
