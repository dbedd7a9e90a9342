/** How a value reads in a definition message. */
export interface RenderValueOptions {
  /** `'json'` (default): `"text"`, escaped as JSON. `'single-quoted'`: `'text'`, as written (the schema area's style). */
  readonly strings?: 'json' | 'single-quoted';
  /** Longest rendering, in characters; a longer one is clipped and ends with `...` (a hostile schema cannot flood a log line). */
  readonly maxLength?: number;
}

/** `text` cut to `maximum` characters, ending with `...` when it was cut. */
export function clipText(text: string, maximum: number): string {
  return text.length > maximum ? `${text.slice(0, maximum - 3)}...` : text;
}

/**
 * The one renderer of a value for a developer-facing message: strings quoted, functions by name, bigints, symbols
 * and non-finite numbers as JavaScript writes them, anything else as JSON (and what JSON cannot write by its tag).
 */
export function renderValue(value: unknown, options: RenderValueOptions = {}): string {
  const text = render(value, options.strings ?? 'json');
  return options.maxLength === undefined ? text : clipText(text, options.maxLength);
}

function render(value: unknown, strings: 'json' | 'single-quoted'): string {
  if (typeof value === 'string') return strings === 'json' ? JSON.stringify(value) : `'${value}'`;
  if (typeof value === 'function') return `function ${value.name || '(anonymous)'}`;
  if (typeof value === 'bigint' || typeof value === 'symbol' || (typeof value === 'number' && !Number.isFinite(value)))
    return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
