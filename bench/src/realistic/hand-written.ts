import { isEmail, isOffsetDateTime } from '../scenario/formats';
import {
  NOT_JSON,
  NOT_JSON_OUTCOME,
  parseArguments,
  unknownToolOutcome,
  type BenchCall,
  type Outcome,
} from '../scenario/shape';
import type { FieldSpec, ScalarSpec, ShapeSpec, ValueSpec } from './shapes';

/**
 * The lean hand-written baseline of the realistic shapes: what a careful engineer writes for each command without a
 * framework, one straight-line check function per shape (its own function, with the property names as literals),
 * JSON.parse and then exactly the checks toolwright makes on a valid call: types, bounds, enums, date-times with an
 * offset on a real day, e-mail addresses (a class command's `@IsEmail()` and a JSON-Schema tool's `format: "email"`,
 * which toolwright enforces), `null` for an optional field as absent, and no unknown key (toolwright
 * drops and records one: here a copy without it is made, which valid calls never need). No normalizing copy of valid
 * input: the handler gets the parsed object.
 *
 * The functions are written out as source per shape (`new Function`), because writing 200 of them by hand is what the
 * baseline stands for, not what this file can hold; each has its own source (the tool's name in a comment and a
 * `//# sourceURL`), so V8 gives each its own feedback, as it would give hand-written functions.
 */

export interface LeanTool {
  /** The problems (path and what was expected), or `undefined` when the arguments are valid. */
  readonly check: (value: Record<string, unknown>) => string[] | undefined;
  /** The parsed arguments without unknown top-level keys (only called when the check found an unknown key). */
  readonly known: (value: Record<string, unknown>) => Record<string, unknown>;
  readonly handler: (params: Record<string, unknown>) => unknown;
}

const property = (name: string) => JSON.stringify(name);

/** The condition under which `value` (an expression) is NOT a valid value of the scalar. */
function scalarFails(spec: ScalarSpec, value: string, checksEmail: boolean): string {
  switch (spec.kind) {
    case 'string':
      return `typeof ${value} !== 'string' || ${value}.length < ${spec.minLength} || ${value}.length > ${spec.maxLength}`;
    case 'int':
      return `typeof ${value} !== 'number' || !Number.isInteger(${value}) || ${value} < ${spec.min} || ${value} > ${spec.max}`;
    case 'number':
      return `typeof ${value} !== 'number' || !Number.isFinite(${value}) || ${value} < ${spec.min}`;
    case 'boolean':
      return `typeof ${value} !== 'boolean'`;
    case 'enum':
      return `(${spec.values.map((allowed) => `${value} !== ${JSON.stringify(allowed)}`).join(' && ')})`;
    case 'datetime':
      return `typeof ${value} !== 'string' || !isOffsetDateTime(${value})`;
    default:
      return checksEmail ? `typeof ${value} !== 'string' || !isEmail(${value})` : `typeof ${value} !== 'string'`;
  }
}

interface Emitter {
  readonly lines: string[];
  variables: number;
  readonly checksEmail: boolean;
}

const fresh = (emitter: Emitter, stem: string) => `${stem}${emitter.variables++}`;

/** Statements that check `value` (an expression naming a variable) against `spec`, pushing to `issues` under `path`. */
function emitValue(emitter: Emitter, spec: ValueSpec, value: string, path: string, indent: string): void {
  const { lines } = emitter;
  if (spec.kind === 'object') {
    lines.push(
      `${indent}if (typeof ${value} !== 'object' || ${value} === null || Array.isArray(${value})) (issues ??= []).push(${path} + ': an object');`,
    );
    lines.push(`${indent}else {`);
    emitObject(emitter, spec.fields, value, path, `${indent}  `);
    lines.push(`${indent}}`);
    return;
  }
  if (spec.kind === 'array') {
    lines.push(
      `${indent}if (!Array.isArray(${value}) || ${value}.length < ${spec.minItems} || ${value}.length > ${spec.maxItems}) (issues ??= []).push(${path} + ': an array of ${spec.minItems} to ${spec.maxItems} items');`,
    );
    lines.push(`${indent}else {`);
    const index = fresh(emitter, 'i');
    const item = fresh(emitter, 'item');
    lines.push(`${indent}  for (let ${index} = 0; ${index} < ${value}.length; ${index}++) {`);
    lines.push(`${indent}    const ${item} = ${value}[${index}];`);
    emitValue(emitter, spec.items, item, `${path} + '[' + ${index} + ']'`, `${indent}    `);
    lines.push(`${indent}  }`);
    lines.push(`${indent}}`);
    return;
  }
  lines.push(
    `${indent}if (${scalarFails(spec, value, emitter.checksEmail)}) (issues ??= []).push(${path} + ': ${spec.kind}');`,
  );
}

/** Checks the fields of the object in `value`, then that it has no other key. */
function emitObject(emitter: Emitter, fields: readonly FieldSpec[], value: string, path: string, indent: string): void {
  const { lines } = emitter;
  const present = fresh(emitter, 'present');
  lines.push(`${indent}let ${present} = 0;`);
  for (const field of fields) {
    const variable = fresh(emitter, 'v');
    const fieldPath = path === "''" ? property(field.name) : `${path} + ${property(`.${field.name}`)}`;
    lines.push(`${indent}const ${variable} = ${value}[${property(field.name)}];`);
    if (field.required) {
      lines.push(
        `${indent}if (${variable} === undefined || ${variable} === null) (issues ??= []).push(${fieldPath} + ': required');`,
      );
      lines.push(`${indent}else {`);
    } else {
      lines.push(`${indent}if (${variable} !== undefined) ${present}++;`);
      lines.push(`${indent}if (${variable} !== undefined && ${variable} !== null) {`);
    }
    if (field.required) lines.push(`${indent}  ${present}++;`);
    emitValue(emitter, field.value, variable, fieldPath, `${indent}  `);
    lines.push(`${indent}}`);
  }
  // No unknown key: as many keys as known keys present (a for...in count, as ajv's generated code walks keys; JSON.parse
  // makes own keys only).
  const key = fresh(emitter, 'key');
  const keys = fresh(emitter, 'keys');
  lines.push(`${indent}let ${keys} = 0;`);
  lines.push(`${indent}for (const ${key} in ${value}) ${keys}++;`);
  lines.push(`${indent}if (${keys} !== ${present}) unknown = true;`);
}

function emitKnown(fields: readonly FieldSpec[]): string {
  const names = JSON.stringify(fields.map((field) => field.name));
  return `const names = ${names}; const out = {}; for (const name of names) if (Object.hasOwn(value, name)) out[name] = value[name]; return out;`;
}

/** The source of one shape's check (the tool's name in a comment and in its sourceURL, so every shape's source is its own). */
export function leanCheckSource(shape: ShapeSpec, checksEmail: boolean): string {
  const emitter: Emitter = { lines: [], variables: 0, checksEmail };
  emitObject(emitter, shape.fields, 'value', "''", '  ');
  return [
    `// hand-written check of ${shape.name}`,
    'let issues;',
    'let unknown = false;',
    ...emitter.lines,
    "if (unknown && issues === undefined) return ['unknown key'];",
    'return issues;',
    `//# sourceURL=hand-written/${shape.name}.js`,
  ].join('\n');
}

export function leanTool(shape: ShapeSpec, checksEmail: boolean, handler: () => unknown): LeanTool {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the per-shape function, written out from the shape
  const check = new Function(
    'isEmail',
    'isOffsetDateTime',
    `return function check(value) {\n${leanCheckSource(shape, checksEmail)}\n};`,
  )(isEmail, isOffsetDateTime) as LeanTool['check'];
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- as above
  const known = new Function('value', emitKnown(shape.fields)) as LeanTool['known'];
  return { check, known, handler };
}

/** The lean pipeline: JSON text -> lookup -> JSON.parse -> check (+ message) -> handler. */
export function leanPipeline(tools: ReadonlyMap<string, LeanTool>) {
  return async (call: BenchCall): Promise<Outcome> => {
    const tool = tools.get(call.name);
    if (tool === undefined) return unknownToolOutcome(call.name);
    const raw = parseArguments(call.arguments);
    if (raw === NOT_JSON) return NOT_JSON_OUTCOME;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      return { ok: false, message: 'The arguments must be one JSON object of parameter names and values.' };
    let params = raw as Record<string, unknown>;
    const issues = tool.check(params);
    if (issues !== undefined) {
      if (issues.length !== 1 || issues[0] !== 'unknown key')
        return {
          ok: false,
          message: `The arguments for "${call.name}" are invalid:\n${issues.map((issue) => `- ${issue}`).join('\n')}`,
        };
      params = tool.known(params);
    }
    return { ok: true, value: await tool.handler(params) };
  };
}
