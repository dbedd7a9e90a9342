import 'reflect-metadata';
import { runDifferential } from './differential';

/** Half of the rules' differential test (see `differential.ts`): 25,000 seeded calls under the default `safe` policy. */
jest.setTimeout(300_000);

it('the default, reference and Standard Schema paths, the walk and the hot tier agree on 25,000 calls (safe)', async () => {
  const { disagreements, calls, accepted } = await runDifferential('safe', 4001, 25_000);
  expect(disagreements).toStrictEqual([]);
  expect(calls).toBe(25_000);
  // Both answers are well represented.
  expect(accepted).toBeGreaterThan(1_000);
  expect(calls - accepted).toBeGreaterThan(1_000);
});
