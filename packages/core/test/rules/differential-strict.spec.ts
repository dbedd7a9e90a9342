import 'reflect-metadata';
import { runDifferential } from './differential';

/** The other half of the rules' differential test (see `differential.ts`): 25,000 seeded calls under the `strict` policy, with the output-schema check. */
jest.setTimeout(300_000);

it('the default, reference and Standard Schema paths, the output check, the walk and the hot tier agree on 25,000 calls (strict)', async () => {
  const { disagreements, calls, accepted } = await runDifferential('strict', 4002, 25_000);
  expect(disagreements).toStrictEqual([]);
  expect(calls).toBe(25_000);
  // Both answers are represented (`strict` refuses every repair, so most calls of several parameters are refused).
  expect(accepted).toBeGreaterThan(250);
  expect(calls - accepted).toBeGreaterThan(1_000);
});
