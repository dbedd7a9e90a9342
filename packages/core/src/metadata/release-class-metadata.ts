import { getMetadataStorage } from 'class-validator';

/**
 * Removes what class-validator and class-transformer keep about a class in their global stores, so a class
 * toolwright synthesized for a tool that is gone can be garbage collected. Both libraries key their stores by class
 * and never remove an entry: a server whose tool list keeps changing would otherwise grow the heap without bound.
 * Only for classes toolwright made (never a developer's DTO). Storage shapes that are not the known ones are left
 * alone (nothing breaks; the memory is just not released).
 */
export function releaseClassMetadata(target: Function): void {
  releaseClassValidator(target);
  releaseClassTransformer(target);
}

/**
 * Constraint classes shared by many rules (toolwright registers one per rule kind, see `sharedRule`): they stay when
 * a class is released, since other classes' rules use them.
 */
const sharedConstraintClasses = new WeakSet<Function>();

/** Marks a constraint class as shared by the rules of many classes, so releasing one class keeps it. */
export function markSharedConstraintClass(constraintClass: Function): void {
  sharedConstraintClasses.add(constraintClass);
}

interface ValidationRule {
  readonly constraintCls?: Function;
}

function releaseClassValidator(target: Function): void {
  const storage = getMetadataStorage() as unknown as { validationMetadatas?: unknown; constraintMetadatas?: unknown };
  const rules = storage.validationMetadatas;
  const constraints = storage.constraintMetadatas;
  if (!(rules instanceof Map)) return;
  const own = rules.get(target) as readonly ValidationRule[] | undefined;
  if (own === undefined) return;
  // Each `registerDecorator` with a validator object (every built-in decorator since 0.14, and toolwright's own)
  // registers a fresh constraint class for that one rule: it goes with the rule (a shared one stays).
  if (constraints instanceof Map) {
    for (const rule of own) {
      const constraintClass = rule.constraintCls;
      if (
        constraintClass !== undefined &&
        constraintClass.name === 'CustomConstraint' &&
        !sharedConstraintClasses.has(constraintClass)
      ) {
        constraints.delete(constraintClass);
      }
    }
  }
  rules.delete(target);
}

function releaseClassTransformer(target: Function): void {
  let storage: Record<string, unknown> | undefined;
  try {
    storage = (require('class-transformer/cjs/storage') as { defaultMetadataStorage?: Record<string, unknown> })
      .defaultMetadataStorage;
  } catch {
    return;
  }
  if (storage === undefined) return;
  for (const field of [
    '_typeMetadatas',
    '_transformMetadatas',
    '_exposeMetadatas',
    '_excludeMetadatas',
    '_ancestorsMap',
  ]) {
    const map = storage[field];
    if (map instanceof Map) map.delete(target);
  }
}
