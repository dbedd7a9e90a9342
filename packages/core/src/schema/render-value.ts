/** A short rendering of a value for messages. */
export function renderValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'function') return `function ${value.name || '(anonymous)'}`;
  if (typeof value === 'bigint' || typeof value === 'symbol' || (typeof value === 'number' && !Number.isFinite(value))) return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
