import {
  BOUND_RULES,
  constraintChecks,
  constraintHolds,
  foldConstraints,
  type ConstraintCheck,
} from '../pipeline/constraints';
import { lengthWithin } from '../rules/string';
import { numberWithin } from '../rules/number';
import { isCanonicalDate } from '../rules/date';
import { isCanonicalDateTime } from '../rules/date-time';
import { isListedMember, memberSet } from '../rules/enum';
import { isInteger } from '../rules/integer';
import { imitatedContextName } from '../pipeline/context-impostors';
import { minNumberLength, NOT_ACCEPTED } from '../pipeline/information-loss';
import { beyondSafeInteger } from '../pipeline/json-text-rules';
import type { PipelineLimits } from '../pipeline/limits';
import { DANGEROUS_KEYS } from '../pipeline/sanitize';
import type { ArraySchema, ObjectSchema, ParamSchema } from '../types/schema';
import { CheckNode, Kind, MEMBER_FIELDS, memberList, type Member } from './check-records';
import { compileHotCheck, hotCheckSource, type BoundedAcceptFunction, type HotSource } from './hot-check';
import { HotTier, type HotCandidate } from './hot-tier';
import { specializeInstantiator } from './hot-instantiate';
import type { Instantiator } from '../pipeline/instantiate';
import type { BoundedCheck } from '../pipeline/parse-arguments';

/**
 * The canonical check: "already valid and canonical?" for one tool's arguments, in one pass
 * with no allocation. `true` only when the arguments (parsed from text, so the pipeline's own) would come out of
 * sanitizing, normalizing (with every IR constraint) and the context-impostor scan exactly as they went in, with no
 * transformation, no issue and no security event. Then the executor skips those steps and uses the object as it is; on
 * `false` the normalizer runs as the reference for repairs, transformations and messages.
 *
 * A tool's check is data: a tree of {@link CheckNode} records built once from its parameter schema, the pipeline
 * limits and the constraints' one definition (`pipeline/constraints.ts`), walked by one function shared by every tool
 * ({@link walk}). Sound by construction: anything the records do not model (unions, free-form values, extra keys,
 * aliases, recursion, nodes nested deeper than the depth limit) is a node that refuses, never one that accepts.
 */
export type AcceptFunction = (value: unknown) => boolean;

export type { BoundedCheck } from '../pipeline/parse-arguments';
export type { BoundedAcceptFunction } from './hot-check';
export { NOT_ACCEPTED };

const KIND_NAMES = ['refuses every value', 'string', 'int', 'float', 'bool', 'date', 'array', 'object'] as const;

/**
 * The rules a node's `lower` and `upper` bounds state, by kind (printed first: each kind's rules list them first, as
 * `constraintChecks` orders them).
 */
const BOUNDS_BY_KIND: readonly (readonly [string, string] | undefined)[] = [
  undefined,
  BOUND_RULES.length,
  BOUND_RULES.number,
  BOUND_RULES.number,
  undefined,
  undefined,
  BOUND_RULES.items,
  undefined,
];

/**
 * Objects with at most this many acceptable keys find a key out of declaration order by scanning them (as cheap as a
 * hash for so few, and no `Map` per object node: about 330 bytes each); larger ones keep a `Map`.
 */
const MAX_SCANNED_KEYS = 8;

/** The scalar enums checked by `===` in a loop; longer ones by a `Set`. */
const MAX_LISTED_ENUM = 8;

const NONE: readonly never[] = Object.freeze([]);

const REFUSE_NODE = new CheckNode(
  Kind.Refuse,
  false,
  undefined,
  undefined,
  undefined,
  NONE,
  NONE,
  undefined,
  undefined,
  undefined,
  undefined,
  undefined,
  0,
);

/**
 * The scalar nodes, one per kind, nullability, date form, constraints and enum in the process (a boolean, a date-time,
 * a string with no bound or `maxLength 200`, an enum of the same values: most of a tool's nodes repeat ones other tools
 * have): a node is immutable, the walk reads it by its fields only and nothing tells two equal scalar nodes apart
 * (docs/decisions/0033-constraint-records-and-tool-memory.md). A node's constraints are compared by rule and stated limit (what
 * `constraintHolds` reads: a pattern by its source, as the constraint records are shared) and its enum by the type and
 * value of each entry; an enum of other values (an object) is never shared. Bounded: past
 * {@link MAX_SHARED_SCALARS} nodes, further nodes are made per use and not kept.
 */
const sharedScalars = new Map<string, CheckNode>();
const MAX_SHARED_SCALARS = 4096;

function sharedScalar(
  kind: Kind,
  nullable: boolean,
  dateForm: ((value: string) => boolean) | undefined,
  constraints: readonly ConstraintCheck[],
  values: readonly unknown[] | undefined,
): CheckNode {
  const form = dateForm === undefined ? 0 : dateForm === isCanonicalDate ? 1 : 2;
  const key = scalarKey(`${kind}${nullable ? 1 : 0}${form}`, constraints, values);
  let node = key === undefined ? undefined : sharedScalars.get(key);
  if (node === undefined) {
    const listed = values !== undefined && values.length <= MAX_LISTED_ENUM ? values : undefined;
    const set = values !== undefined && values.length > MAX_LISTED_ENUM ? memberSet(values) : undefined;
    const { lower, upper, count, rest } = foldConstraints(constraints);
    node = new CheckNode(
      kind,
      nullable,
      lower,
      upper,
      count,
      rest,
      listed,
      set,
      dateForm,
      undefined,
      undefined,
      undefined,
      0,
    );
    if (key !== undefined && sharedScalars.size < MAX_SHARED_SCALARS) sharedScalars.set(key, node);
  }
  return node;
}

/**
 * What tells scalar nodes apart, after the kind, nullability and date form (`head`): each constraint's rule and stated
 * limit, and the enum's values; `undefined` when a limit or an enum value is not a string, number or boolean.
 */
function scalarKey(
  head: string,
  constraints: readonly ConstraintCheck[],
  values: readonly unknown[] | undefined,
): string | undefined {
  const parts = [head];
  for (const constraint of constraints) {
    const limit = keyPart(constraint.stated);
    if (limit === undefined) return undefined;
    // The length count tells `minLength 3` counted two ways apart.
    parts.push(constraint.count === undefined ? constraint.rule : `${constraint.rule}:${constraint.count}`, limit);
  }
  if (values !== undefined) {
    parts.push('enum');
    for (const value of values) {
      const part = keyPart(value);
      if (part === undefined) return undefined;
      parts.push(part);
    }
  }
  return parts.join(',');
}

/**
 * A limit or an enum value in a scalar node's key: a string quoted (so the key reads back one way), a number or a
 * boolean as its text (`Infinity` and `-Infinity` apart; -0 and 0 alike, as `===`, a `Set` and the bounds treat them;
 * `NaN` matches nothing, whichever node holds it).
 */
function keyPart(value: unknown): string | undefined {
  if (typeof value === 'string') return JSON.stringify(value);
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
}

/**
 * Whether the canonical check may accept a property's key as it is: never a context field, a prototype key
 * (`__proto__`, `constructor`, `prototype`) or a name that imitates a context name (the normalizer drops or reports
 * those even when declared).
 */
function acceptableKey(property: ObjectSchema['properties'][number]): boolean {
  return !property.context && !DANGEROUS_KEYS.has(property.name) && imitatedContextName(property.name) === undefined;
}

/** Builds the records of one tool's check. */
class CheckBuilder {
  private readonly visiting = new Set<ParamSchema>();

  constructor(private readonly limits: PipelineLimits) {}

  /** The node for `schema` at container depth `depth` (the arguments object is 1), as the sanitizer counts it. */
  node(schema: ParamSchema, depth: number): CheckNode {
    switch (schema.kind) {
      case 'string':
        return this.scalar(schema, Kind.String, undefined);
      case 'int':
        return this.scalar(schema, Kind.Int, undefined);
      case 'float':
        return this.scalar(schema, Kind.Float, undefined);
      case 'bool':
        return this.scalar(schema, Kind.Bool, undefined);
      case 'date':
        return this.scalar(schema, Kind.Date, isCanonicalDate);
      case 'datetime':
        return this.scalar(schema, Kind.Date, isCanonicalDateTime);
      case 'array':
      case 'object':
        return this.container(schema, depth);
      default:
        return REFUSE_NODE;
    }
  }

  private scalar(schema: ParamSchema, kind: Kind, dateForm: ((value: string) => boolean) | undefined): CheckNode {
    return sharedScalar(kind, schema.nullable === true, dateForm, constraintChecks(schema), schema.enum);
  }

  private container(schema: ArraySchema | ObjectSchema, depth: number): CheckNode {
    if (depth > this.limits.maxDepth || this.visiting.has(schema)) return REFUSE_NODE;
    this.visiting.add(schema);
    let items: CheckNode | undefined;
    let members: Member[] | undefined;
    let required = 0;
    if (schema.kind === 'array') items = this.node(schema.items, depth + 1);
    else {
      members = [];
      for (const property of schema.properties) {
        if (!acceptableKey(property)) continue;
        const requiredFromModel = property.required && !property.extract;
        if (requiredFromModel) required++;
        members.push(property.name, this.node(property.schema, depth + 1), requiredFromModel);
      }
    }
    this.visiting.delete(schema);
    // A container's enum is one of its constraints (`jsonEquals`), not a scalar enum.
    const { lower, upper, rest } = foldConstraints(constraintChecks(schema));
    return new CheckNode(
      schema.kind === 'array' ? Kind.Array : Kind.Object,
      schema.nullable === true,
      lower,
      upper,
      undefined,
      rest,
      undefined,
      undefined,
      undefined,
      items,
      members !== undefined && members.length > MAX_SCANNED_KEYS * MEMBER_FIELDS ? keyPlaces(members) : undefined,
      // `slice`: a list grown by `push` keeps room for more.
      members?.slice(),
      required,
    );
  }
}

/** Each key of an object node's members to its place in them. */
function keyPlaces(members: readonly Member[]): Map<string, number> {
  const places = new Map<string, number>();
  for (let at = 0; at < members.length; at += MEMBER_FIELDS) places.set(members[at] as string, at);
  return places;
}

/**
 * One tool's canonical check: its records, the item limit the walk reads, and the check as a function. The function is
 * the shared walk, which counts the tool's calls for the hot tier (`compile/hot-tier.ts`), until the
 * tier gives the tool code of its own (`compile/hot-check.ts`, emitted from the same records): the one slot
 * {@link accept} reads, owned and written only by this object. `accept` is a method of the class, not a closure per
 * tool: the parse step is given the check itself.
 */
export class CanonicalCheck implements HotCandidate, BoundedCheck {
  /** The hot tier's count of this tool's calls (see {@link HotCandidate.mark}). */
  mark = 0;
  /**
   * After {@link accept} accepted a value, the number of keys and strings in it (read it right after the call: the
   * check is synchronous); counted by the walk or by the tool's own code, and owned by this check.
   */
  keysAndStrings = 0;
  /** The tool's own code, once the hot tier gave it some (`undefined`: the shared walk). */
  private hot: BoundedAcceptFunction | undefined = undefined;

  constructor(
    private readonly root: CheckNode,
    /** The item limit the walk reads. */
    readonly maxArrayItems: number,
    /** The tool's name (the generated code's comment and `sourceURL`). */
    private readonly tool: string,
    /**
     * The tool's instantiator, given code of its own when the check is (a field, not a callback: a closure and its
     * context per tool).
     */
    private readonly instantiate: Instantiator | undefined,
    /** The hot tier that counts this check's calls (its executor's). */
    private readonly tier: HotTier,
  ) {
    if (tier.specializesWhenBuilt) this.specialize();
  }

  /** What the parse step calls: the tool's own code when it has some, else the shared walk (counted for the tier). */
  accept(value: unknown): number {
    const hot = this.hot;
    if (hot !== undefined) return hot(value);
    this.tier.countCall(this);
    this.keysAndStrings = 0;
    return walk(this, this.root, value);
  }

  /**
   * The check of one member of the arguments alone (a streamed call's field, its siblings still to come), as the walk
   * checks it inside the whole object: {@link NOT_ACCEPTED} unless `key` is a member the check accepts and `value` is
   * accepted by its node, else the share of the one-member object `{key: value}` (with {@link keysAndStrings} counted
   * for it). The object's own rules (its required members, its constraints) are the whole call's, not checked here.
   * Not counted for the hot tier: only whole calls are.
   */
  acceptMember(key: string, value: unknown): number {
    const root = this.root;
    if (root.kind !== Kind.Object) return NOT_ACCEPTED;
    const members = root.members!;
    const at = root.properties === undefined ? memberPlace(members, key) : (root.properties.get(key) ?? -1);
    if (at < 0) return NOT_ACCEPTED;
    this.keysAndStrings = 0;
    const valueShare = share(this, members[at + 1] as CheckNode, value);
    if (valueShare === NOT_ACCEPTED) return NOT_ACCEPTED;
    this.keysAndStrings += 1;
    // As `walkObject` counts one member: the brace, the key's quotes, colon and closing brace, its length, the value.
    return 1 + key.length + 4 + valueShare;
  }

  /** Whether the check runs code of its own (the hot tier specialized it). */
  get specialized(): boolean {
    return this.hot !== undefined;
  }

  /**
   * Gives the check code of its own, emitted from its records, unless its source is beyond the tier's budget or the
   * process does not compile code from strings (`node --disallow-code-generation-from-strings`, a content security
   * policy): then it stays on the walk. Called by the hot tier off any call's stack (or when the check is built, with
   * `mode: 'always'`).
   */
  specialize(): boolean {
    if (this.hot !== undefined) return true;
    const code = this.source();
    const maxSourceLength = this.tier.settings.maxSourceLength;
    if (code.source.length > maxSourceLength) return false;
    try {
      this.hot = compileHotCheck(code, this);
    } catch {
      return false;
    }
    if (this.instantiate !== undefined) specializeInstantiator(this.instantiate, this.tool, maxSourceLength);
    return true;
  }

  /** The source of the check's own code (whether or not it runs). */
  source(): HotSource {
    return hotCheckSource(this.root, this.maxArrayItems, this.tool);
  }

  /** The records as text, one line per node, indented by depth (what `toolwright inspect --code` prints). */
  print(): string {
    const lines = [''];
    printNode(this.root, '', lines);
    return lines.join('\n');
  }
}

/**
 * Builds one tool's canonical check for these limits (`tool`: its name, for its generated code when it is hot;
 * `instantiate`: the tool's instantiator, specialized with it; `tier`: the hot tier that counts its calls, its
 * executor's, or one of its own).
 */
export function canonicalCheck(
  schema: ObjectSchema,
  limits: PipelineLimits,
  tool = 'tool',
  instantiate?: Instantiator,
  tier: HotTier = new HotTier(),
): CanonicalCheck {
  return new CanonicalCheck(new CheckBuilder(limits).node(schema, 1), limits.maxArrayItems, tool, instantiate, tier);
}

/** The boolean form of a tool's canonical check. */
export function acceptFunction(schema: ObjectSchema, limits: PipelineLimits): AcceptFunction {
  const check = canonicalCheck(schema, limits);
  return (value) => check.accept(value) !== NOT_ACCEPTED;
}

function printNode(node: CheckNode, indent: string, lines: string[]): void {
  const facts: string[] = [KIND_NAMES[node.kind]];
  if (node.nullable && node.kind !== Kind.Refuse) facts.push('or null');
  if (node.dateForm !== undefined)
    facts.push(node.dateForm === isCanonicalDate ? 'canonical date' : 'canonical date-time');
  const enumValues = node.listedEnum ?? (node.enumSet === undefined ? undefined : [...node.enumSet]);
  if (enumValues !== undefined) facts.push(`one of ${JSON.stringify(enumValues)}`);
  const stated: string[] = [];
  const bounds = BOUNDS_BY_KIND[node.kind];
  if (bounds !== undefined && node.lower !== undefined) stated.push(`${bounds[0]} ${node.lower}`);
  if (bounds !== undefined && node.upper !== undefined) stated.push(`${bounds[1]} ${node.upper}`);
  if (node.count !== undefined) stated.push(`counted as ${node.count}`);
  for (const constraint of node.constraints) stated.push(`${constraint.rule} ${JSON.stringify(constraint.stated)}`);
  if (stated.length > 0) facts.push(`constraints: ${stated.join(', ')}`);
  if (node.kind === Kind.Object) facts.push(`${node.required} required`);
  lines[lines.length - 1] += facts.join('; ');
  if (node.items !== undefined) {
    lines.push(`${indent}  items: `);
    printNode(node.items, `${indent}  `, lines);
  }
  for (const property of memberList(node)) {
    lines.push(`${indent}  ${JSON.stringify(property.name)}${property.required ? '' : '?'}: `);
    printNode(property.node, `${indent}  `, lines);
  }
}

const getPrototypeOf = Object.getPrototypeOf;
const isArray = Array.isArray;
const isSafeInteger = isInteger;
const isFinite = Number.isFinite;
const OBJECT_PROTOTYPE = Object.prototype;

/**
 * The one walk of every tool's canonical check (`check`: the check walked, whose item limit it reads and whose count of
 * keys and strings it keeps): {@link NOT_ACCEPTED} unless `value` is accepted for `node`, else the value's share of
 * the bound. Each scalar adds its share: a string its length and quotes (and one to the count of keys and strings), a number the fewest characters of any literal of it (a safe integer cannot be a rounded one; a number
 * beyond 2^53 makes the bound NaN), `true` 4, `false` 5, `null` 4. `null` where the node is not nullable is refused
 * or dropped as absent by the normalizer: a change either way.
 */
function walk(check: CanonicalCheck, node: CheckNode, value: unknown): number {
  if (value === null) return node.nullable && node.kind !== Kind.Refuse ? 4 : NOT_ACCEPTED;
  // Containers recurse; a scalar's check is small and not recursive, so the containers' loops take it inline.
  if (node.kind === Kind.Object) return walkObject(check, node, value);
  if (node.kind === Kind.Array) return walkArray(check, node, value);
  return scalarShare(check, node, value);
}

/**
 * {@link walk} for a scalar node (or one that refuses everything) and a value that is not `null`, dispatched on the
 * value's type first (a string, the most frequent, first): each kind accepts values of one type only.
 */
function scalarShare(check: CanonicalCheck, node: CheckNode, value: unknown): number {
  const kind = node.kind;
  if (typeof value === 'string') {
    if (kind === Kind.String) {
      if (!lengthWithin(value, node.lower, node.upper, node.count) || !(node.plain || passes(node, value)))
        return NOT_ACCEPTED;
    } else if (kind !== Kind.Date || !node.dateForm!(value) || !(node.plain || passes(node, value)))
      return NOT_ACCEPTED;
    check.keysAndStrings++;
    return value.length + 2;
  }
  if (typeof value === 'number') {
    if (kind === Kind.Int)
      return isSafeInteger(value) && numberWithin(value, node.lower, node.upper) && (node.plain || passes(node, value))
        ? minNumberLength(value)
        : NOT_ACCEPTED;
    if (kind !== Kind.Float || !isFinite(value) || !numberWithin(value, node.lower, node.upper)) return NOT_ACCEPTED;
    if (!(node.plain || passes(node, value))) return NOT_ACCEPTED;
    return beyondSafeInteger(value) ? Number.NaN : minNumberLength(value);
  }
  if (typeof value !== 'boolean' || kind !== Kind.Bool || !(node.plain || passes(node, value))) return NOT_ACCEPTED;
  return value ? 4 : 5;
}

/** The share of a value that may be anything: a scalar's check inline, a container's walk. */
function share(check: CanonicalCheck, node: CheckNode, value: unknown): number {
  if (node.kind < Kind.Array && value !== null) return scalarShare(check, node, value);
  return walk(check, node, value);
}

/** A node's constraints other than its bounds and, for a scalar, its enum. */
function passes(node: CheckNode, value: unknown): boolean {
  const constraints = node.constraints;
  for (let index = 0; index < constraints.length; index++)
    if (!constraintHolds(constraints[index]!, value)) return false;
  const listed = node.listedEnum;
  if (listed !== undefined) return isListedMember(listed, value);
  return node.enumSet === undefined || node.enumSet.has(value);
}

function walkArray(check: CanonicalCheck, node: CheckNode, value: unknown): number {
  if (!isArray(value) || value.length > check.maxArrayItems || !numberWithin(value.length, node.lower, node.upper))
    return NOT_ACCEPTED;
  const items = node.items!;
  // The brackets and a comma per item, one fewer than items (`[]` is 2).
  let bound = value.length === 0 ? 2 : value.length + 1;
  for (let index = 0; index < value.length; index++) {
    const itemShare = share(check, items, value[index]);
    if (itemShare === NOT_ACCEPTED) return NOT_ACCEPTED;
    bound += itemShare;
  }
  return node.plain || passes(node, value) ? bound : NOT_ACCEPTED;
}

/** The place in `members` of the key named `key` of an object node without a key map (at most {@link MAX_SCANNED_KEYS}). */
function memberPlace(members: readonly Member[], key: string): number {
  for (let at = 0; at < members.length; at += MEMBER_FIELDS) if (members[at] === key) return at;
  return -1;
}

function walkObject(check: CanonicalCheck, node: CheckNode, value: unknown): number {
  if (typeof value !== 'object' || value === null || getPrototypeOf(value) !== OBJECT_PROTOTYPE) return NOT_ACCEPTED;
  const members = node.members!;
  const object = value as Record<string, unknown>;
  let next = 0;
  let seen = 0;
  // The braces: `{}` is 2; with members, one brace and each member's share (which counts the other or a comma).
  let bound = 1;
  let count = 0;
  // Own keys first, then inherited enumerable ones (none of which is accepted), as JSON.parse's objects have them.
  for (const key in object) {
    let at = next;
    if (at >= members.length || members[at] !== key) {
      at = node.properties === undefined ? memberPlace(members, key) : (node.properties.get(key) ?? -1);
      if (at < 0) return NOT_ACCEPTED;
    }
    next = at + MEMBER_FIELDS;
    const valueShare = share(check, members[at + 1] as CheckNode, object[key]);
    if (valueShare === NOT_ACCEPTED) return NOT_ACCEPTED;
    count++;
    // The key's quotes, colon and comma (or closing brace), and its length.
    bound += key.length + 4 + valueShare;
    if (members[at + 2] === true) seen++;
  }
  if (seen !== node.required) return NOT_ACCEPTED;
  // The object's keys, counted once (its strings are counted as the walk meets them).
  check.keysAndStrings += count;
  if (count === 0) bound++;
  return node.plain || passes(node, value) ? bound : NOT_ACCEPTED;
}
