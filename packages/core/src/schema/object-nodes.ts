import type { ObjectSchema, ParamSchema } from '../types/schema';

/** The object schema nodes of a schema (itself, properties, items, variants, additionalProperties), each once. */
export function objectNodes(schema: ObjectSchema): ObjectSchema[] {
  const found: ObjectSchema[] = [];
  const seen = new Set<ParamSchema>();
  const stack: ParamSchema[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop()!;
    // Only nodes with children are remembered: a leaf has nothing to find.
    if (node.kind !== 'array' && node.kind !== 'union' && node.kind !== 'object') continue;
    if (seen.has(node)) continue;
    seen.add(node);
    if (node.kind === 'array') stack.push(node.items);
    else if (node.kind === 'union') stack.push(...node.variants);
    else if (node.kind === 'object') {
      found.push(node);
      const { properties } = node;
      for (let index = 0; index < properties.length; index++) stack.push(properties[index]!.schema);
      if (typeof node.additionalProperties === 'object') stack.push(node.additionalProperties);
    }
  }
  return found;
}
