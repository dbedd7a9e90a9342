import type { CoercionPolicy, ExecutionContext } from '@toolwright/core';
import { PersonaToolExecutor } from '@toolwright/core';
import { stderrLogger } from '@toolwright/mcp';
import { EXIT_CODES } from '../exit-codes';
import { InspectorEventLog } from '../inspector/event-log';
import { startInspector } from '../inspector/start-inspector';
import type { Output } from '../output';
import type { LoadedTools } from '../source/tools';
import { untilSignal } from './serve-command';

/** `toolwright inspect`: the inspector on 127.0.0.1, its URL (with the per-start token) on stdout. */
export async function inspectCommand(
  tools: LoadedTools,
  options: {
    port: number;
    host: string;
    allowRun: boolean;
    context: ExecutionContext;
    policy?: CoercionPolicy;
    /** Print the code generated for this tool's compiled plan instead of starting the page. */
    code?: string;
  },
  output: Output,
): Promise<number> {
  if (options.code !== undefined) return printCode(tools, options.code, options.policy, output);
  const events = new InspectorEventLog();
  const executor = new PersonaToolExecutor(tools.registry, {
    logger: events.tap(quietLogger()),
    ...(options.policy ? { policy: options.policy } : {}),
  });
  const running = await startInspector({
    registry: tools.registry,
    executor,
    events,
    allowRun: options.allowRun,
    host: options.host,
    port: options.port,
    defaultContext: options.context,
    source: tools.label,
    logger: stderrLogger,
  });
  output.out(`toolwright inspector for ${tools.label}: ${running.url}`);
  if (!['127.0.0.1', 'localhost', '::1'].includes(options.host)) {
    output.err(
      output.styleErr(
        'yellow',
        `warning: the inspector listens on ${options.host}, not only on this machine: anyone who can reach it and has the URL's token can use it.`,
      ),
    );
  }
  output.err(
    output.styleErr(
      'dim',
      `${options.allowRun ? 'Handlers run after a confirmation in the page (--allow-run).' : 'Handlers are never called (prepare only); --allow-run enables running them.'} Press Ctrl+C to stop.`,
    ),
  );
  await untilSignal();
  await running.close();
  return EXIT_CODES.ok;
}

/** `toolwright inspect --code <tool>`: the tool's plan as text on stdout (the page is not started). */
function printCode(tools: LoadedTools, tool: string, policy: CoercionPolicy | undefined, output: Output): number {
  const executor = new PersonaToolExecutor(tools.registry, {
    logger: quietLogger(),
    telemetry: false,
    ...(policy ? { policy } : {}),
  });
  const code = executor.generatedCode(tool);
  if (code === undefined) {
    output.err(output.styleErr('red', `no tool named "${tool}" in ${tools.label}`));
    return EXIT_CODES.problem;
  }
  output.out(code === '' ? `// ${tool} has no plan of its own (it is validated on the reference path)` : code);
  return EXIT_CODES.ok;
}

/** The executor's log while inspecting: handler failures and slow calls on stderr; refusals are shown in the page. */
function quietLogger() {
  return {
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    error: (...args: Parameters<typeof stderrLogger.error>) => stderrLogger.error(...args),
  };
}
