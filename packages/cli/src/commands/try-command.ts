import { PersonaToolExecutor, silentLogger, type CoercionPolicy, type ExecutionContext } from '@toolwright/core';
import { reportCall } from '../calls/call-report';
import { CliError } from '../errors/cli-error';
import { EXIT_CODES } from '../exit-codes';
import { toJson, type Output } from '../output';
import type { LoadedTools } from '../source/tools';
import { printReport } from './print-report';

export const POLICIES: readonly CoercionPolicy[] = ['strict', 'safe', 'lenient'];

export function parsePolicy(value: string | undefined): CoercionPolicy | undefined {
  if (value === undefined) return undefined;
  if (!(POLICIES as string[]).includes(value))
    throw new CliError(`--policy ${value}: unknown policy. Fix: use one of ${POLICIES.join(', ')}.`);
  return value as CoercionPolicy;
}

/**
 * `toolwright try <tool> '<arguments>'`: the call through the application's executor, `prepare` (steps 1-6) by
 * default, `--run` for the handler too. Exit 1 when the call is refused.
 */
export async function tryCommand(
  tools: LoadedTools,
  tool: string,
  argumentsText: string,
  options: { context: ExecutionContext; policy?: CoercionPolicy; run: boolean; json: boolean },
  output: Output,
): Promise<number> {
  const executor = new PersonaToolExecutor(tools.registry, {
    logger: silentLogger,
    ...(options.policy ? { policy: options.policy } : {}),
  });
  const report = await reportCall(
    executor,
    { id: 'call_try_1', name: tool, arguments: argumentsText },
    { context: options.context, run: options.run },
  );
  if (options.json) output.out(toJson(report));
  else printReport(report, output);
  return report.ok ? EXIT_CODES.ok : EXIT_CODES.problem;
}
