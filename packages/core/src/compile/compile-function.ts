/**
 * The factory each function (or object of functions) {@link compileFunction} built came from, for printing: its
 * `toString()` is the generated source. The factory, not the text: V8 keeps the source anyway while a function built
 * from it lives, and a copy of the text would be kilobytes per tool.
 */
const factories = new WeakMap<object, Function>();

/**
 * The one place toolwright turns generated source into a function (decision 0013): `source` is a function body that
 * returns what the generator built, and `bindings` are the values it may read, each under its key as a parameter name
 * (`k`, the generator's constants, among them). Generated code never embeds schema or model text unescaped: generators
 * pass such text through `stringLiteral` or as a binding.
 *
 * `label` names what the code is for (`accept note`, the generator and the tool): a first-line comment, so that two tools
 * whose generated code is otherwise identical get sources of their own (V8 caches `new Function` by source text, and
 * tools sharing one cached function share its type feedback: their property accesses go megamorphic), and a
 * `//# sourceURL` under which profilers and debuggers show it. {@link generatedSource} prints it.
 */
export function compileFunction<T>(source: string, bindings: Readonly<Record<string, unknown>>, label?: string): T {
  const names = Object.keys(bindings);
  const text =
    label === undefined ? source : `// toolwright: ${printable(label)}\n${source}\n//# sourceURL=${sourceUrl(label)}\n`;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const factory = new Function(...names, text) as (...values: unknown[]) => T;
  const built = factory(...names.map((name) => bindings[name]));
  remember(built, factory);
  return built;
}

/**
 * The source a {@link compileFunction} result was built from (also for each function of an object it returned): the
 * factory V8 compiled, its parameters the bindings' names and its body the generated code.
 */
export function generatedSource(built: unknown): string | undefined {
  const typed = typeof built === 'function' || (typeof built === 'object' && built !== null);
  return typed ? factories.get(built)?.toString() : undefined;
}

function remember(built: unknown, factory: Function): void {
  if (typeof built === 'function') factories.set(built, factory);
  else if (typeof built === 'object' && built !== null) {
    factories.set(built, factory);
    for (const value of Object.values(built)) if (typeof value === 'function') factories.set(value, factory);
  }
}

/** A label as comment text: one line, no comment terminator, printable ASCII (a remote tool's name is untrusted). */
function printable(label: string): string {
  return label.replace(/[^\x20-\x7e]|\*\//g, '?').slice(0, 200);
}

/** A label as the path of a `toolwright-generated:` URL: letters, digits and `._-` kept, anything else `_`. */
function sourceUrl(label: string): string {
  return `toolwright-generated:///${label.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 200)}.js`;
}
