/** The key form used for spelling-insensitive matching: case, `_`, `-`, `.` and white space ignored. */
export function canonicalKey(key: string): string {
  return key.replace(/[-_\s.]/g, '').toLowerCase();
}

/** The path of a member (`parent.key`) or item (`parent[1]`) in the arguments; `''` is the arguments themselves. */
export function joinPath(parent: string, key: string | number): string {
  return typeof key === 'number' ? `${parent}[${key}]` : parent === '' ? key : `${parent}.${key}`;
}
