import { instantiatorRecord, type Instantiator, type InstantiatorRecord } from '../pipeline/instantiate';
import { compileHotSource, printableName, urlText, type HotSource } from './hot-check';

/**
 * The hot tier's code for a class command's DTO instantiator (docs/decisions/0031-hot-tier.md): one class's builder as a
 * function of its own, emitted from the instantiator's record (`pipeline/instantiate.ts`). It is the shared builder's
 * loop with the key dispatch written out: `new Dto()`, then each own enumerable key of the plain object in its order,
 * a declared property assigned by a store of its own (a `case` label, `JSON.stringify` of the name, so a hostile name
 * stays a string), anything else by the same keyed store as the shared builder's. The values of the properties built
 * from their value (dates, nested DTOs, arrays of them) go through the record's builders, bound as arguments of the
 * generated function, never re-stated in its text. The tool's and class's names appear only in a first comment
 * (printable ASCII) and in the `sourceURL` (`[A-Za-z0-9._-]`), so each class's source is its own and V8 gives it its
 * own feedback.
 */

// eslint-disable-next-line @typescript-eslint/unbound-method -- always called as hasOwnProperty.call(object, key)
const hasOwnProperty = Object.prototype.hasOwnProperty;

/** Emits the source of one class's hot builder from its instantiator's record. */
export function hotInstantiatorSource(record: InstantiatorRecord, tool: string): HotSource {
  const names = ['DTO', 'hasOwnProperty'];
  const values: unknown[] = [record.dto, hasOwnProperty];
  const cases: string[] = [];
  // The record's built keys are a subsequence of the properties, in declaration order.
  let built = 0;
  for (const { name } of record.schema.properties) {
    const key = JSON.stringify(name);
    const builder = record.builtKeys[built] === name ? record.builders[built++] : undefined;
    cases.push(`      case ${key}:`);
    if (builder === undefined) cases.push(`        instance[${key}] = x;`);
    else {
      const bound = `build${values.length}`;
      names.push(bound);
      values.push(builder);
      cases.push(`        instance[${key}] = x === null || x === undefined ? x : ${bound}(x, owned);`);
    }
    cases.push('        break;');
  }
  const className = typeof record.dto.name === 'string' ? record.dto.name : '';
  const lines = [
    `// toolwright: hot instantiator of ${printableName(tool)} (${printableName(className)})`,
    '"use strict";',
    'return function hotInstantiate(plain, owned) {',
    '  const instance = new DTO();',
    '  for (const k in plain) {',
    '    if (!hasOwnProperty.call(plain, k)) continue;',
    '    const x = plain[k];',
    '    switch (k) {',
    ...cases,
    '      default:',
    '        instance[k] = x;',
    '    }',
    '  }',
    '  return instance;',
    '};',
    `//# sourceURL=toolwright/hot/${urlText(tool)}.${urlText(className)}.instantiate.js`,
  ];
  return { source: lines.join('\n'), names, values };
}

/** Compiles a class's hot builder. */
export function compileHotInstantiator(code: HotSource): Instantiator {
  return compileHotSource<Instantiator>(code);
}

/**
 * Gives a class command's instantiator (and those of its nested DTO classes) code of its own, the hot tier's
 * (docs/decisions/0031-hot-tier.md): called when the tool's canonical check is specialized, off any call's stack. The code builds what
 * the shared builder builds when it does not adopt (`new Dto()`, each own key assigned in its order, the same builders
 * for dates, nested DTOs and arrays of them), with one literal store per declared property instead of a shared keyed
 * store; it never adopts (constructing and assigning is what adopting stands for, and is cheaper with literal
 * stores). `false` when it stays shared: built by class-transformer, beyond the tier's source budget (`maxSourceLength`
 * characters), or a process
 * that compiles no code from strings.
 */
export function specializeInstantiator(instantiator: Instantiator, tool: string, maxSourceLength: number): boolean {
  const record = instantiatorRecord(instantiator);
  if (record === undefined || typeof record === 'string') return false;
  if (record.own !== undefined) return true;
  for (const nested of record.nested) specializeInstantiator(nested, tool, maxSourceLength);
  // Called by the hot tier off any call's stack, where nothing may throw: any failure keeps the shared builder.
  try {
    const code = hotInstantiatorSource(record, tool);
    if (code.source.length > maxSourceLength) return false;
    record.own = compileHotInstantiator(code);
  } catch {
    return false;
  }
  return true;
}

/**
 * The sources of an instantiator's own code and of its nested classes' (each source once), and whether it runs:
 * what `toolwright inspect --code` prints; `undefined` for an instantiator built by class-transformer.
 */
export function hotInstantiatorSources(
  instantiator: Instantiator,
  tool: string,
): { readonly running: boolean; readonly sources: readonly HotSource[] } | undefined {
  const top = instantiatorRecord(instantiator);
  if (top === undefined || typeof top === 'string') return undefined;
  const sources: HotSource[] = [];
  // A class nested in several places has an instantiator in each, all of the same source: printed once.
  const seen = new Set<string>();
  const visit = (record: InstantiatorRecord) => {
    const code = hotInstantiatorSource(record, tool);
    if (seen.has(code.source)) return;
    seen.add(code.source);
    sources.push(code);
    for (const nested of record.nested) {
      const child = instantiatorRecord(nested);
      if (child !== undefined && typeof child !== 'string') visit(child);
    }
  };
  visit(top);
  return { running: top.own !== undefined, sources };
}
