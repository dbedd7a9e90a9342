import 'reflect-metadata';
import { Bench } from 'tinybench';
import { PersonaToolExecutor, ToolRegistry, createToolTelemetry, silentLogger } from '@toolwright/core';
import { VALID } from './scenario/inputs';
import { ScheduleMeetingCommand } from './scenario/toolwright';

/**
 * The cost of OpenTelemetry in the executor, on the bench's valid call (issue 14: zero cost when no tracer is
 * registered). Cases: telemetry off (`telemetry: false`); the default with `@opentelemetry/api` installed and no
 * provider registered; and, for scale, an explicit SDK tracer + meter provider recording every call in memory.
 *   npm run bench:telemetry
 */
async function main(): Promise<void> {
  const registry = ToolRegistry.from([ScheduleMeetingCommand], { logger: silentLogger });
  const off = new PersonaToolExecutor(registry, { logger: silentLogger, telemetry: false });
  const unregistered = new PersonaToolExecutor(registry, { logger: silentLogger });
  const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } =
    await import('@opentelemetry/sdk-trace-base');
  const { MeterProvider } = await import('@opentelemetry/sdk-metrics');
  const spans = new InMemorySpanExporter();
  const recording = new PersonaToolExecutor(registry, {
    logger: silentLogger,
    telemetry: createToolTelemetry({
      tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }),
      meterProvider: new MeterProvider(),
    })!,
  });
  for (const executor of [off, unregistered, recording]) {
    const result = await executor.execute(VALID);
    if (!result.ok) throw new Error(`the valid call failed: ${result.error.message}`);
  }

  const cases: [string, () => Promise<void>][] = [
    ['telemetry: false', async () => void (await off.execute(VALID))],
    ['default, no provider registered', async () => void (await unregistered.execute(VALID))],
    [
      'SDK tracer + meter recording in memory',
      async () => {
        await recording.execute(VALID);
        spans.reset();
      },
    ],
  ];
  // Six rounds, the order rotated each round; each case keeps its best median (the machine is shared).
  const medians = new Map<string, number>();
  for (let round = 0; round < 6; round++) {
    const bench = new Bench({ time: 700, warmupTime: 200 });
    for (let index = 0; index < cases.length; index++) {
      const [name, run] = cases[(index + round) % cases.length]!;
      bench.add(name, run);
    }
    await bench.run();
    for (const task of bench.tasks) {
      const p50 = (task.result as { latency?: { p50?: number } } | undefined)?.latency?.p50;
      if (p50 === undefined) throw new Error(`${task.name}: no result`);
      medians.set(task.name, Math.min(medians.get(task.name) ?? Infinity, p50 * 1000));
    }
  }
  const baseline = medians.get('telemetry: false')!;
  for (const [name] of cases) {
    const us = medians.get(name)!;
    process.stdout.write(
      `${name.padEnd(42)} median ${us.toFixed(2).padStart(8)} us  ${((us / baseline - 1) * 100).toFixed(1).padStart(6)} % vs telemetry: false\n`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
