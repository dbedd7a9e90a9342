import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The BFCL corpus (Berkeley Function Calling Leaderboard v4, Apache-2.0) for tests and benchmarks, vendored in this
 * repository at `packages/core/test/fixtures/bfcl/` (upstream license, commit and citation in its README).
 * Every file is JSON Lines. See that folder's README for the format and its quirks.
 */

/** The one place that names the corpus folder. */
export const BFCL_FIXTURE_DIRECTORY = path.resolve(__dirname, '..', 'fixtures', 'bfcl');

export const BFCL_QUESTION_FILES = [
  'BFCL_v4_simple_python.json',
  'BFCL_v4_simple_java.json',
  'BFCL_v4_simple_javascript.json',
  'BFCL_v4_multiple.json',
  'BFCL_v4_parallel.json',
  'BFCL_v4_parallel_multiple.json',
  'BFCL_v4_irrelevance.json',
  'BFCL_v4_live_simple.json',
  'BFCL_v4_live_multiple.json',
  'BFCL_v4_live_parallel.json',
  'BFCL_v4_live_parallel_multiple.json',
  'BFCL_v4_live_irrelevance.json',
  'BFCL_v4_live_relevance.json',
] as const;

export type BfclQuestionFile = (typeof BFCL_QUESTION_FILES)[number];

/** The question files that have ground truth under `possible_answer/` (irrelevance and relevance sets have none). */
export const BFCL_GROUND_TRUTH_FILES = [
  'BFCL_v4_simple_python.json',
  'BFCL_v4_simple_java.json',
  'BFCL_v4_simple_javascript.json',
  'BFCL_v4_multiple.json',
  'BFCL_v4_parallel.json',
  'BFCL_v4_parallel_multiple.json',
  'BFCL_v4_live_simple.json',
  'BFCL_v4_live_multiple.json',
  'BFCL_v4_live_parallel.json',
  'BFCL_v4_live_parallel_multiple.json',
] as const satisfies readonly BfclQuestionFile[];

export type BfclGroundTruthFile = (typeof BFCL_GROUND_TRUTH_FILES)[number];

/** A BFCL parameter schema: JSON-Schema-like, with BFCL's own type names (`dict`, `float`, `tuple`, `any`, Java names...). */
export interface BfclSchema {
  readonly type?: string;
  readonly description?: string;
  readonly properties?: Readonly<Record<string, BfclSchema>>;
  readonly items?: BfclSchema;
  readonly required?: readonly string[];
  readonly enum?: readonly unknown[];
  readonly default?: unknown;
  readonly [keyword: string]: unknown;
}

export interface BfclFunction {
  readonly name: string;
  readonly description: string;
  readonly parameters: BfclSchema;
}

export interface BfclMessage {
  readonly role: 'user' | 'system' | 'assistant';
  readonly content: string;
}

export interface BfclEntry {
  readonly id: string;
  /** Turns, each a list of chat messages (every entry in the copied sets is single-turn). */
  readonly question: readonly (readonly BfclMessage[])[];
  /** The tool definitions offered to the model. */
  readonly function: readonly BfclFunction[];
}

/** `{ parameter: [acceptable values...] }`; `""` among the values means the parameter may be omitted. */
export type BfclExpectedArguments = Readonly<Record<string, readonly unknown[]>>;

export interface BfclGroundTruthEntry {
  readonly id: string;
  /** Expected calls, each `{ functionName: { parameter: [acceptable values] } }`. */
  readonly ground_truth: readonly Readonly<Record<string, BfclExpectedArguments>>[];
}

/** One function definition with where it came from. */
export interface BfclFunctionRecord {
  readonly file: BfclQuestionFile;
  readonly entryId: string;
  /** Position of the function in the entry's `function` list. */
  readonly index: number;
  readonly function: BfclFunction;
}

/** The corpus folder: `$TOOLWRIGHT_BFCL_DIR` if set (another copy of the same files), else the vendored fixtures. */
export function bfclDirectory(): string {
  const override = process.env['TOOLWRIGHT_BFCL_DIR'];
  if (override !== undefined && override !== '') return override;
  return BFCL_FIXTURE_DIRECTORY;
}

const cache = new Map<string, readonly unknown[]>();

function readJsonLines<T>(file: string): readonly T[] {
  const cached = cache.get(file);
  if (cached !== undefined) return cached as readonly T[];
  if (!existsSync(file)) {
    throw new Error(
      `BFCL corpus file ${file} is missing: the corpus is vendored at ${BFCL_FIXTURE_DIRECTORY} (restore it from git), or set TOOLWRIGHT_BFCL_DIR.`,
    );
  }
  const records = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      try {
        return JSON.parse(line) as T;
      } catch (error) {
        throw new Error(`${file}:${index + 1} is not valid JSON`, { cause: error });
      }
    });
  cache.set(file, records);
  return records;
}

/** The entries (questions with the functions offered) of one question file. */
export function loadBfclEntries(file: BfclQuestionFile): readonly BfclEntry[] {
  return readJsonLines<BfclEntry>(path.join(bfclDirectory(), file));
}

/** The ground-truth entries of one file, in the same order as its question entries. */
export function loadBfclGroundTruth(file: BfclGroundTruthFile): readonly BfclGroundTruthEntry[] {
  return readJsonLines<BfclGroundTruthEntry>(path.join(bfclDirectory(), 'possible_answer', file));
}

/** Every function definition of every question file (8,726 in the v4 copy), in file and entry order. */
export function loadBfclFunctions(
  files: readonly BfclQuestionFile[] = BFCL_QUESTION_FILES,
): readonly BfclFunctionRecord[] {
  const records: BfclFunctionRecord[] = [];
  for (const file of files) {
    for (const entry of loadBfclEntries(file)) {
      entry.function.forEach((definition, index) =>
        records.push({ file, entryId: entry.id, index, function: definition }),
      );
    }
  }
  return records;
}

/**
 * BFCL's type names -> JSON Schema type names. `undefined` means "no type": any JSON value.
 * Python sets: dict, float, tuple, any; Java: String, Boolean, long, double, char, HashMap, Array, ArrayList;
 * JavaScript: String, Boolean and one empty type "".
 */
export const BFCL_TYPE_NAMES: ReadonlyMap<string, string | undefined> = new Map<string, string | undefined>([
  ['string', 'string'],
  ['integer', 'integer'],
  ['number', 'number'],
  ['boolean', 'boolean'],
  ['array', 'array'],
  ['object', 'object'],
  ['dict', 'object'],
  ['float', 'number'],
  ['tuple', 'array'],
  ['any', undefined],
  ['', undefined],
  ['String', 'string'],
  ['Boolean', 'boolean'],
  ['long', 'integer'],
  ['double', 'number'],
  ['char', 'string'],
  ['HashMap', 'object'],
  ['Array', 'array'],
  ['ArrayList', 'array'],
]);

/** Subschema positions BFCL schemas use (and the standard ones, should a later copy use them). */
const SCHEMA_MAPS = ['properties', '$defs', 'definitions'] as const;
const SCHEMA_SINGLES = ['items', 'additionalProperties'] as const;
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf'] as const;

/**
 * A BFCL parameter schema as standard JSON Schema: type names mapped recursively (an unknown name throws, so a new
 * corpus quirk is noticed), everything else kept as written (BFCL's `optional` flag included: the importer ignores
 * it as an annotation).
 */
export function bfclToJsonSchema(schema: BfclSchema): Record<string, unknown> {
  const output: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'type') {
      if (typeof value !== 'string' || !BFCL_TYPE_NAMES.has(value))
        throw new Error(`Unknown BFCL type name ${JSON.stringify(value)}`);
      const mapped = BFCL_TYPE_NAMES.get(value);
      if (mapped !== undefined) output['type'] = mapped;
    } else if ((SCHEMA_MAPS as readonly string[]).includes(keyword) && isSchemaMap(value)) {
      output[keyword] = Object.fromEntries(
        Object.entries(value).map(([name, child]) => [name, bfclToJsonSchema(child)]),
      );
    } else if ((SCHEMA_SINGLES as readonly string[]).includes(keyword) && isSchema(value)) {
      output[keyword] = bfclToJsonSchema(value);
    } else if ((SCHEMA_LISTS as readonly string[]).includes(keyword) && Array.isArray(value)) {
      output[keyword] = value.map((child: BfclSchema) => bfclToJsonSchema(child));
    } else {
      output[keyword] = value;
    }
  }
  return output;
}

function isSchema(value: unknown): value is BfclSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSchemaMap(value: unknown): value is Readonly<Record<string, BfclSchema>> {
  return isSchema(value) && Object.values(value).every(isSchema);
}
