import type { ConstraintCheck } from '../pipeline/constraints';
import type { LengthCount } from '../types/schema';

/**
 * The records of a tool's canonical check: what the shared walk (`compile/canonical-check.ts`)
 * reads, and what a hot tool's own code (`compile/hot-check.ts`) is emitted from.
 */

/** What a node checks, and how its share of the bound is counted. */
export const enum Kind {
  /** Refuses every value (unions, free-form values, recursion, nesting beyond the depth limit). */
  Refuse,
  String,
  Int,
  Float,
  Bool,
  /** A date or date-time string: kept as it is only in its canonical form. */
  Date,
  Array,
  Object,
}

/**
 * One schema node of a tool's canonical check. Every node is this one class with every field set, so the walk's loads
 * stay monomorphic across every tool.
 */
export class CheckNode {
  /** Whether the node checks nothing beyond its kind and bounds (no other constraint, no enum): the walk's common case. */
  readonly plain: boolean;

  constructor(
    readonly kind: Kind,
    readonly nullable: boolean,
    /**
     * The node's plain bounds (`undefined` where none), folded from its constraint records when it is built
     * (`foldConstraints`): a string's length (`lengthWithin`), a number, an array's item count (`numberWithin`). Not
     * `-Infinity` and `Infinity` for none: a field that holds a double gets a box per node.
     */
    readonly lower: number | undefined,
    readonly upper: number | undefined,
    /** How a string's length is counted against those bounds (`rules/string.ts`; `undefined`: code points). */
    readonly count: LengthCount | undefined,
    /** The node's other IR constraints, as records checked by their one definition (`constraintHolds`). */
    readonly constraints: readonly ConstraintCheck[],
    /** A scalar enum of at most {@link MAX_LISTED_ENUM} values (the value must be one of them, `===`). */
    readonly listedEnum: readonly unknown[] | undefined,
    /** A longer scalar enum. */
    readonly enumSet: ReadonlySet<unknown> | undefined,
    /** The canonical form of a date or date-time string. */
    readonly dateForm: ((value: string) => boolean) | undefined,
    /** An array's items. */
    readonly items: CheckNode | undefined,
    /**
     * An object's acceptable keys by name, each to its place in {@link members}, when it has more than a few (the walk
     * scans {@link members} otherwise): never a context field, a prototype key or a context impostor.
     */
    readonly properties: ReadonlyMap<string, number> | undefined,
    /**
     * An object's acceptable keys in declaration order (keys usually come in that order: each is looked for there
     * first), {@link MEMBER_FIELDS} entries each, in one flat list: the key's name, its value's node, and whether the
     * model must send it (`true` or `false`); a key's share of the bound is its name's length and 4 (its quotes, colon
     * and comma or closing brace). One list, not a record per key: a record was 64 bytes of a key's 88.
     */
    readonly members: readonly Member[] | undefined,
    /** How many of those are required from the model. */
    readonly required: number,
  ) {
    this.plain = constraints.length === 0 && listedEnum === undefined && enumSet === undefined;
  }
}

/** One entry of {@link CheckNode.members}: a key's name, its value's node, or whether it is required. */
export type Member = string | CheckNode | boolean;

/** How many entries of {@link CheckNode.members} each key takes (its name, its node, whether it is required). */
export const MEMBER_FIELDS = 3;

/** The keys of an object node, as `[name, node, required]` (what printing and code generation read). */
export function memberList(node: CheckNode): { name: string; node: CheckNode; required: boolean }[] {
  const members = node.members ?? [];
  const list: { name: string; node: CheckNode; required: boolean }[] = [];
  for (let at = 0; at < members.length; at += MEMBER_FIELDS)
    list.push({ name: members[at] as string, node: members[at + 1] as CheckNode, required: members[at + 2] === true });
  return list;
}
