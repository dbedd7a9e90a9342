import { IsEmail } from 'class-validator';
import { container as rootContainer } from 'tsyringe';
import { ArrayOf } from '../decorators/array-of.decorator';
import { Command } from '../decorators/command.decorator';
import { DateTime } from '../decorators/date-time.decorator';
import { ToolParam } from '../decorators/tool-param.decorator';
import { silentLogger } from '../logging/logger';
import type { CompileSettings } from '../compile/tool-plan';
import { ToolRegistry } from '../registry/tool-registry';
import type { ToolCall, ToolResult } from '../types/execution';
import { tsyringeCommandResolver, type CommandResolver } from './command-resolution';
import type { PersonaToolExecutorOptions } from './executor-options';
import { TransformationStats } from './transformation-stats';

/**
 * The call path warmed up ahead of the first call (`executor.compileAll()`, `compile: 'registration'`;
 * docs/decisions/0030-lazy-startup.md). Most of a first call's CPU is not its tool's plan but V8 compiling, on their
 * first run, the shared functions every call runs (parsing, the canonical check's walk, instantiating the DTO, the
 * executor, building the result). Here a private synthetic command, whose parameters have the common node kinds, is
 * called a few times through an executor of its own (same class, same settings), so that those functions are compiled
 * before the application's first call.
 *
 * Invisible to the application: the synthetic command is registered in a registry of its own (never the
 * application's, never in a definition list), its handler is a constant, and the private executor has a silent logger,
 * stats of its own, no telemetry and a resolver of its own (no container is asked). Once per process and validation
 * path: what V8 compiled stays compiled for every executor.
 */

/** What the warm-up needs of the executor: its class, passed by the executor (this module cannot import it: a cycle). */
export type WarmUpExecutor = new (
  registry: ToolRegistry,
  options: PersonaToolExecutorOptions,
) => { execute(call: ToolCall): Promise<ToolResult> };

/** The synthetic tool's name: not a name the application can collide with (its registry holds nothing else). */
export const WARM_UP_TOOL = 'toolwright_call_path_warm_up';

/**
 * The calls the warm-up makes: canonical text (the fast path; spaced as models often write it, so that the fast path's
 * quote count runs, and with a nested object's keys in another order than declared, so that the walk looks them up),
 * text that needs repairs (the normalizer: a key in another case, numbers and a boolean as strings, an array as JSON
 * text), the same as an object (the budget check), and a refused call (the issues, the model-facing message).
 */
export const WARM_UP_CALLS: readonly ToolCall[] = [
  {
    id: 'warm-up-1',
    name: WARM_UP_TOOL,
    arguments:
      '{"title": "Warm up", "count": 3, "ratio": 0.5, "urgent": true, "level": "high", "at": "2026-01-02T03:04:05Z", ' +
      '"tags": ["a", "b"], "stops": [{"zip": 12345, "street": "Main", "contact": "a@example.com"}], ' +
      '"address": {"street": "Side"}, "email": "b@example.com"}',
  },
  {
    id: 'warm-up-2',
    name: WARM_UP_TOOL,
    arguments:
      '{"Title":"Warm up","count":"3","ratio":"0.5","urgent":"true","level":"high","at":"2026-01-02T03:04:05Z",' +
      '"tags":"[\\"a\\"]","stops":[],"address":{"street":"Side","zip":"42","contact":"c@example.com"}}',
  },
  {
    id: 'warm-up-3',
    name: WARM_UP_TOOL,
    arguments: { title: 'Warm up', count: 2, ratio: 1, urgent: false, level: 'low', address: { street: 'Side' } },
  },
  {
    id: 'warm-up-4',
    name: WARM_UP_TOOL,
    arguments: '{"count":"many","level":"medium","tags":[1,{}],"address":{"street":"Side","contact":"nobody"}}',
  },
];

/** The validation paths warmed in this process (the reference path runs other code than the compiled one). */
const warmed = new Set<string>();

/**
 * Warms the call path for executors of `settings`, once per process and validation path: the synthetic command's calls
 * (`WARM_UP_CALLS`) run synchronously here (its handler is synchronous); their results are dropped.
 */
export function warmUpCallPath(settings: CompileSettings, executorClass: WarmUpExecutor): void {
  const key = `${settings.validation}/${settings.canonicalFastPath !== false}`;
  if (warmed.has(key)) return;
  warmed.add(key);
  const executor = warmUpExecutor(settings, executorClass);
  for (const call of WARM_UP_CALLS) void executor.execute(call);
}

/**
 * An executor of the synthetic command alone, with `settings`, a silent logger, its own stats and no telemetry. Its
 * command is built by the executor's default resolver (`tsyringeCommandResolver`, so that its first run is not an
 * application's first call) over a child of tsyringe's root container, made on the first call: the resolver only
 * reads the root's registrations (is the synthetic class registered? it is not), registers nothing, and builds the
 * command with `new`. A root container the application disposed makes the synthetic calls fail, not the warm-up.
 */
export function warmUpExecutor(settings: CompileSettings, executorClass: WarmUpExecutor): InstanceType<WarmUpExecutor> {
  const command = warmUpCommand();
  const registry = new ToolRegistry({ logger: silentLogger });
  registry.register(command);
  let resolve: CommandResolver | undefined;
  return new executorClass(registry, {
    coercion: settings.policy,
    limits: settings.limits,
    validation: settings.validation,
    timeoutMs: settings.timeoutMs,
    slowCallMs: settings.slowCallMs,
    canonicalFastPath: settings.canonicalFastPath,
    logger: silentLogger,
    stats: new TransformationStats(),
    telemetry: false,
    resolveCommand: (commandClass, invocation) => {
      resolve ??= tsyringeCommandResolver(rootContainer.createChildContainer());
      return resolve(commandClass, invocation);
    },
  });
}

type WarmUpCommand = new () => { execute(params: object): unknown };
let command: WarmUpCommand | undefined;

/** The synthetic command, decorated on the first warm-up (not at import: a process that never warms up pays nothing). */
function warmUpCommand(): WarmUpCommand {
  if (command !== undefined) return command;

  class WarmUpAddress {
    @ToolParam({ description: 'Street', minLength: 1, maxLength: 100 })
    street!: string;

    @ToolParam({ description: 'Postal code', type: 'int', min: 0, max: 99_999, required: false })
    zip?: number;

    @ToolParam({ description: 'Contact', required: false })
    @IsEmail()
    contact?: string;
  }

  class WarmUpParams {
    @ToolParam({ description: 'Title', minLength: 1, maxLength: 200 })
    title!: string;

    @ToolParam({ description: 'Count', type: 'int', min: 1, max: 1_000 })
    count!: number;

    @ToolParam({ description: 'Ratio', type: 'float', min: 0 })
    ratio!: number;

    @ToolParam({ description: 'Urgent', type: 'bool' })
    urgent!: boolean;

    @ToolParam({ description: 'Level', enum: ['low', 'high'] })
    level!: string;

    @DateTime({ description: 'When', required: false })
    at?: Date;

    @ArrayOf('string', { description: 'Tags', maxItems: 5, required: false })
    tags?: string[];

    @ArrayOf(() => WarmUpAddress, { description: 'Stops', maxItems: 3, required: false })
    stops?: WarmUpAddress[];

    @ToolParam({ description: 'Address', type: () => WarmUpAddress })
    address!: WarmUpAddress;

    @ToolParam({ description: 'E-mail', required: false })
    @IsEmail()
    email?: string;
  }

  @Command({ name: WARM_UP_TOOL, description: 'Warms up the call path (private to toolwright).', params: WarmUpParams })
  class WarmUpCallPath {
    execute(): unknown {
      return 'warm';
    }
  }

  command = WarmUpCallPath;
  return command;
}
