/**
 * The one place toolwright turns generated source into a function (decision 0013): `source` is a function body that
 * returns what the generator built, and `bindings` are the values it may read, each under its key as a parameter name
 * (`k`, the generator's constants, among them). Generated code never embeds schema or model text unescaped: generators
 * pass such text through `stringLiteral` or as a binding.
 */
export function compileFunction<T>(source: string, bindings: Readonly<Record<string, unknown>>): T {
  const names = Object.keys(bindings);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const factory = new Function(...names, source) as (...values: unknown[]) => T;
  return factory(...names.map((name) => bindings[name]));
}
