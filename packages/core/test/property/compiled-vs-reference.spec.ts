import 'reflect-metadata';
import fc from 'fast-check';
import { objectSchema, valueFor } from './arbitraries';
import { PersonaToolExecutor, silentLogger, ToolRegistry, type PrepareResult } from '@toolwright/core';

/**
 * Issue 4's differential test: for generated DTO shapes and generated valid, invalid and malformed inputs, the compiled
 * path (default) and the reference path (normalizer + plainToInstance + class-validator) agree on ok/error, on the
 * value, and on the failing paths. class-validator reports some failures at a container where the compiled path names
 * the element (`{ each: true }` rules at the array, union and nullable-element checks at the property: `tags` vs
 * `tags[2].name`), and the reference path folds such a container issue into the normalizer's precise one. So paths
 * agree when both sides fail the same root properties and every path the reference names is one the compiled path
 * names, or lies inside or around one; the compiled path may name more precise paths inside those roots.
 */

function failingPaths(result: PrepareResult): string[] {
  return result.ok ? [] : [...new Set(result.error.issues.map((issue) => issue.path))].sort();
}

function rootOf(path: string): string {
  return /^[^.[]*/.exec(path)![0];
}

function related(a: string, b: string): boolean {
  const contains = (outer: string, inner: string) =>
    inner === outer || outer === '' || inner.startsWith(`${outer}.`) || inner.startsWith(`${outer}[`);
  return contains(a, b) || contains(b, a);
}

function expectSamePaths(compiled: string[], reference: string[]): void {
  expect([...new Set(compiled.map(rootOf))].sort()).toEqual([...new Set(reference.map(rootOf))].sort());
  for (const path of reference)
    expect({ path, matched: compiled.some((other) => related(path, other)) }).toEqual({ path, matched: true });
}

describe('compiled validation agrees with the reference path (class-transformer + class-validator)', () => {
  it('on generated DTO shapes and inputs', async () => {
    let compared = 0;
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(
        objectSchema(2).chain((schema) =>
          fc.tuple(fc.constant(schema), fc.array(valueFor(schema), { minLength: 4, maxLength: 4 })),
        ),
        async ([schema, inputs]) => {
          const registry = new ToolRegistry({ logger: silentLogger });
          registry.registerJsonSchemaTool({ name: 'tool', parameters: schema }, async (params) => params);
          const compiled = new PersonaToolExecutor(registry, { logger: silentLogger });
          const reference = new PersonaToolExecutor(registry, { logger: silentLogger, validation: 'reference' });
          for (const input of inputs) {
            const call = {
              id: 'c',
              name: 'tool',
              arguments: typeof input === 'string' ? input : JSON.stringify(input),
            };
            const fast = await compiled.prepare(call, {});
            const slow = await reference.prepare(call, {});
            compared++;
            expect(fast.ok).toBe(slow.ok);
            expectSamePaths(failingPaths(fast), failingPaths(slow));
            if (fast.ok && slow.ok) {
              accepted++;
              expect(fast.params).toEqual(slow.params);
              expect(fast.transformations).toEqual(slow.transformations);
            }
          }
        },
      ),
      { seed: 20261121, numRuns: Number(process.env['TOOLWRIGHT_PROPERTY_RUNS'] ?? 300), endOnFailure: true },
    );
    expect(compared).toBeGreaterThanOrEqual(1200);
    expect(accepted).toBeGreaterThan(compared / 10);
  }, 60_000);
});
