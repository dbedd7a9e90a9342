/**
 * Python literal text (`{'a': 'x{y', 'b': True, 'c': None,}`) to JSON text, or `undefined` when the text is not a
 * Python literal made of dicts, lists, strings, numbers, True, False and None. jsonrepair handles most such text;
 * this is the fallback for what it mis-reads (a `{` or `[` inside a single-quoted string throws in jsonrepair 3.15).
 * See docs/decisions/0002-argument-text-repair.md.
 */
const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '\\': '\\', "'": "'", '"': '"', '/': '/', '0': '\0' };
const WORDS: Readonly<Record<string, string>> = { True: 'true', False: 'false', None: 'null', true: 'true', false: 'false', null: 'null' };

export function pythonLiteralToJson(text: string): string | undefined {
  let output = '';
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '"' || char === "'") {
      let value = '';
      let cursor = index + 1;
      while (cursor < text.length && text[cursor] !== char) {
        if (text[cursor] === '\\') {
          const next = text[cursor + 1];
          if (next === undefined) return undefined;
          if (next === 'u' || next === 'x') {
            const length = next === 'u' ? 4 : 2;
            const hex = text.slice(cursor + 2, cursor + 2 + length);
            if (!new RegExp(`^[0-9a-fA-F]{${length}}$`).test(hex)) return undefined;
            value += String.fromCharCode(parseInt(hex, 16));
            cursor += 2 + length;
            continue;
          }
          // Python keeps an unknown escape as written (`'\d'` is backslash, d).
          value += ESCAPES[next] ?? `\\${next}`;
          cursor += 2;
          continue;
        }
        value += text[cursor];
        cursor++;
      }
      if (cursor >= text.length) return undefined;
      output += JSON.stringify(value);
      index = cursor + 1;
      continue;
    }
    if (/[A-Za-z_]/.test(char)) {
      const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(index))![0];
      const json = WORDS[word];
      if (json === undefined) return undefined;
      output += json;
      index += word.length;
      continue;
    }
    if (char === ',') {
      const rest = /^,\s*([}\]])/.exec(text.slice(index));
      if (rest) {
        index += rest[0].length - 1;
        continue;
      }
    }
    output += char;
    index++;
  }
  return output;
}
