export { canonicalKey } from '../rules/unknown-keys';

/** The path of a member (`parent.key`) or item (`parent[1]`) in the arguments; `''` is the arguments themselves. */
export function joinPath(parent: string, key: string | number): string {
  return typeof key === 'number' ? `${parent}[${key}]` : parent === '' ? key : `${parent}.${key}`;
}
