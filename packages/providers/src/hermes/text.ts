/**
 * Text helpers for the Qwen/Hermes format: finding JSON objects inside free text, and JSON rendered the way the
 * chat templates' `tojson` renders it (Python's `json.dumps` separators `", "` and `": "`).
 */

export interface FoundJsonObject {
  readonly value: unknown;
  readonly start: number;
  readonly end: number;
}

/** The end (exclusive) of the balanced `{...}` starting at `start`, strings respected; -1 when it never closes. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const character = text[index];
    if (inString) {
      if (character === '\\') index += 1;
      else if (character === '"') inString = false;
      continue;
    }
    if (character === '"') inString = true;
    else if (character === '{') depth += 1;
    else if (character === '}') {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}

/** Every top-level JSON object in a text (prose, fenced blocks), in order. Text that does not parse is skipped. */
export function findJsonObjects(text: string): FoundJsonObject[] {
  const found: FoundJsonObject[] = [];
  let position = 0;
  while (position < text.length) {
    const start = text.indexOf('{', position);
    if (start < 0) break;
    const end = balancedEnd(text, start);
    if (end < 0) break;
    try {
      found.push({ value: JSON.parse(text.slice(start, end)) as unknown, start, end });
      position = end;
    } catch {
      position = start + 1;
    }
  }
  return found;
}

/** JSON with Python's default separators, as `tojson` writes it in the Qwen and Hermes chat templates. */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value))
    return `[${value.map((item) => pythonJsonDumps(item === undefined ? null : item)).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}: ${pythonJsonDumps(item)}`).join(', ')}}`;
}
