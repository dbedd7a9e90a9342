import type { ConstraintCheck } from '../pipeline/constraints';

/**
 * The records of a tool's canonical check (decision 0024, amended): what the shared walk (`compile/canonical-check.ts`)
 * reads, and what a hot tool's own code (`compile/hot-check.ts`, decision 0031) is emitted from.
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
  constructor(
    readonly kind: Kind,
    readonly nullable: boolean,
    /** The node's IR constraints, as records checked by their one definition (`constraintHolds`). */
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
     * An object's acceptable keys by name, when it has more than a few (the walk scans {@link declared} otherwise):
     * never a context field, a prototype key or a context impostor.
     */
    readonly properties: ReadonlyMap<string, PropertyCheck> | undefined,
    /** An object's acceptable keys in declaration order (keys usually come in that order: each is looked for there first). */
    readonly declared: readonly PropertyCheck[] | undefined,
    /** How many of those are required from the model. */
    readonly required: number,
  ) {}
}

/** One acceptable key of an object node. */
export class PropertyCheck {
  constructor(
    readonly name: string,
    /** Its place in its object's {@link CheckNode.declared}. */
    readonly slot: number,
    /** The key's share of the bound: its quotes, colon and comma (or closing brace), and its length. */
    readonly memberLength: number,
    readonly required: boolean,
    readonly node: CheckNode,
  ) {}
}
