import 'reflect-metadata';

/**
 * Child-process entry: the cases that need a process of their own, because class-validator's storage is global
 * (every decorated DTO class stays registered for the life of the process) and because build time and memory
 * must be measured from a fresh start.
 *
 *   node child.js scale-tw <tools>   toolwright (and the hand-written map) with <tools> decorated class commands, each called once
 *   node child.js scale-json <tools> toolwright with <tools> JSON-Schema tools, each called once
 *   node child.js scale-cv <dtos>    plain CT+CV with <dtos> DTO classes registered
 *   node child.js build <tools>      import core, decorate, ToolRegistry.from, first call: wall times
 *   node --expose-gc child.js memory <tools>        heap per decorated class command
 *   node --expose-gc child.js memory-json <tools>   heap per JSON-Schema tool
 *   node child.js realistic <tools>  issue 26: <tools> distinct commands round-robin, every contender, CPU time
 *   node --expose-gc child.js memory-distinct <tools>   issue 26: heap per class command of its own shape, two calls each
 *   node child.js registry-from <tools>                 issue 26: CPU time of ToolRegistry.from for <tools> distinct commands
 *
 * Each mode loads only the modules it needs and prints one line `@@result <json>`.
 */

const RESULT_PREFIX = '@@result ';

function emit(value: unknown): void {
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(value)}\n`);
}

/** A function that collects garbage (four passes) and returns the heap used; the mode must run with --expose-gc. */
function settledHeap(mode: string): () => number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error(`run the ${mode} mode with node --expose-gc`);
  return () => {
    for (let index = 0; index < 4; index++) gc();
    return process.memoryUsage().heapUsed;
  };
}

async function scaleToolwright(tools: number): Promise<void> {
  const { ToolRegistry, silentLogger } = require('@toolwright/core') as typeof import('@toolwright/core');
  const { generateToolwrightCommands } = require('./generate-toolwright') as typeof import('./generate-toolwright');
  const { ScheduleMeetingCommand } = require('./scenario/toolwright') as typeof import('./scenario/toolwright');
  const { generateHandTools, handToolMap, handWrittenPipeline } =
    require('./scenario/hand-written') as typeof import('./scenario/hand-written');
  const { VALID } = require('./scenario/inputs') as typeof import('./scenario/inputs');
  const { measure } = require('./harness') as typeof import('./harness');
  const { createExecutor, detectValidationOption, modeLabel, modesToMeasure } =
    require('./toolwright-setup') as typeof import('./toolwright-setup');

  const generated = generateToolwrightCommands(tools - 1);
  const samples = new Map(generated.map((tool) => [tool.name, tool.sampleArguments]));
  const others = generated.map((tool) => tool.command);
  const middle = others.length >> 1;
  const registry = ToolRegistry.from([...others.slice(0, middle), ScheduleMeetingCommand, ...others.slice(middle)], {
    logger: silentLogger,
  });
  if (registry.size !== tools) throw new Error(`expected ${tools} tools, registered ${registry.size}`);
  const modes = modesToMeasure(detectValidationOption(registry));
  // Every command is called once first (what an app that has used each of its tools looks like: per-command state,
  // such as a DI container entry, exists for each).
  const warmExecutor = createExecutor(registry, modes[0]!);
  for (const tool of registry.list()) {
    if (tool.name === VALID.name) continue;
    const sample = samples.get(tool.name);
    if (sample === undefined) continue;
    const result = await warmExecutor.execute({ id: 'w', name: tool.name, arguments: sample });
    if (!result.ok) throw new Error(`${tool.name} refused its sample arguments: ${result.error.message}`);
  }
  const hand = handWrittenPipeline(handToolMap(generateHandTools(tools - 1)));
  const tasks: { id: string; fn: () => unknown }[] = [{ id: 'hand', fn: () => hand(VALID) }];
  const labels: Record<string, string> = { hand: 'hand-written pipeline' };
  // The reference path (class-validator's validate(), which scans every registered class) is measured up to 1,000
  // commands only: at 10,000 a call takes tens of milliseconds, and it is not what the flatness target is about.
  for (const mode of modes.filter((candidate) => candidate !== 'reference' || tools <= 1_000)) {
    const executor = createExecutor(registry, mode);
    const check = await executor.execute(VALID);
    if (!check.ok)
      throw new Error(`toolwright (${mode}) refused the valid call with ${tools} tools: ${check.error.message}`);
    tasks.push({ id: `tw-execute-${mode}`, fn: () => executor.execute(VALID) });
    labels[`tw-execute-${mode}`] = `toolwright execute (${modeLabel(mode)})`;
  }
  const measured = await measure(tasks, { timeMs: 600, rounds: 3, minSamplesPerRound: 4, targetBatchUs: 40 });
  emit({ tools, results: [...measured.values()].map((m) => ({ ...m, label: labels[m.id] })) });
}

async function scaleJsonSchema(tools: number): Promise<void> {
  const { ToolRegistry, silentLogger } = require('@toolwright/core') as typeof import('@toolwright/core');
  const { generateJsonSchemaTools } = require('./generate-json-schema') as typeof import('./generate-json-schema');
  const { ScheduleMeetingCommand } = require('./scenario/toolwright') as typeof import('./scenario/toolwright');
  const { JSON_TOOL_NAME, TOOL_DESCRIPTION, TOOL_NAME, scheduleMeeting } =
    require('./scenario/shape') as typeof import('./scenario/shape');
  const { VALID, call } = require('./scenario/inputs') as typeof import('./scenario/inputs');
  const { measure } = require('./harness') as typeof import('./harness');
  const { createExecutor, modeLabel } = require('./toolwright-setup') as typeof import('./toolwright-setup');

  // The bench's tool as a JSON-Schema tool among tools - 1 generated JSON-Schema tools (its schema is exported from
  // the decorated command in a registry of its own, so the measured registry holds JSON-Schema tools only).
  const parameters = ToolRegistry.from([ScheduleMeetingCommand], { logger: silentLogger }).toJsonSchema(
    TOOL_NAME,
  ) as unknown as Record<string, unknown>;
  const registry = new ToolRegistry({ logger: silentLogger });
  const generated = generateJsonSchemaTools(tools - 1);
  const middle = generated.length >> 1;
  for (const tool of generated.slice(0, middle)) registry.registerJsonSchemaTool(tool.declaration, tool.handler);
  registry.registerJsonSchemaTool({ name: JSON_TOOL_NAME, description: TOOL_DESCRIPTION, parameters }, (params) =>
    scheduleMeeting(params as never),
  );
  for (const tool of generated.slice(middle)) registry.registerJsonSchemaTool(tool.declaration, tool.handler);
  if (registry.size !== tools) throw new Error(`expected ${tools} tools, registered ${registry.size}`);
  const executor = createExecutor(registry, 'compiled');
  for (const tool of generated) {
    const result = await executor.execute({ id: 'w', name: tool.name, arguments: tool.sampleArguments });
    if (!result.ok) throw new Error(`${tool.name} refused its sample arguments: ${result.error.message}`);
  }
  const valid = call(VALID.arguments, JSON_TOOL_NAME);
  const check = await executor.execute(valid);
  if (!check.ok)
    throw new Error(`the JSON-Schema tool refused the valid call with ${tools} tools: ${check.error.message}`);
  const measured = await measure([{ id: 'tw-json-execute-compiled', fn: () => executor.execute(valid) }], {
    timeMs: 600,
    rounds: 3,
    minSamplesPerRound: 4,
    targetBatchUs: 40,
  });
  emit({
    tools,
    results: [...measured.values()].map((m) => ({
      ...m,
      label: `toolwright execute, JSON-Schema tools (${modeLabel('compiled')})`,
    })),
  });
}

async function memoryJsonSchema(tools: number): Promise<void> {
  const settle = settledHeap('memory-json');
  const core = require('@toolwright/core') as typeof import('@toolwright/core');
  const { generateJsonSchemaTools } = require('./generate-json-schema') as typeof import('./generate-json-schema');
  const warm = generateJsonSchemaTools(5, 1_000_000);
  const warmRegistry = new core.ToolRegistry({ logger: core.silentLogger });
  for (const tool of warm) warmRegistry.registerJsonSchemaTool(tool.declaration, tool.handler);
  const warmExecutor = new core.PersonaToolExecutor(warmRegistry, { logger: core.silentLogger });
  for (const tool of warm) await warmExecutor.execute({ id: 'w', name: tool.name, arguments: tool.sampleArguments });

  // The declarations are the application's data (an MCP server's tool list): made before the first reading.
  const generated = generateJsonSchemaTools(tools);
  const before = settle();
  const registry = new core.ToolRegistry({ logger: core.silentLogger });
  for (const tool of generated) registry.registerJsonSchemaTool(tool.declaration, tool.handler);
  const afterRegistry = settle();
  const executor = new core.PersonaToolExecutor(registry, { logger: core.silentLogger });
  for (const tool of generated) {
    const result = await executor.execute({ id: 'm', name: tool.name, arguments: tool.sampleArguments });
    if (!result.ok) throw new Error(`${tool.name} refused its sample arguments: ${result.error.message}`);
  }
  const afterCalls = settle();
  emit({
    tools,
    decoratedBytesPerTool: 0,
    registryBytesPerTool: (afterRegistry - before) / tools,
    afterFirstCallsBytesPerTool: (afterCalls - afterRegistry) / tools,
    totalBytesPerTool: (afterCalls - before) / tools,
    keep: [generated.length, registry.size, warm.length].join(','),
  });
}

async function scaleClassValidator(dtos: number): Promise<void> {
  const { generateClassValidatorDtos } = require('./generate-cv') as typeof import('./generate-cv');
  const { ctcvPipeline, scheduleMeetingCvTool } =
    require('./scenario/class-validator') as typeof import('./scenario/class-validator');
  const { TOOL_NAME } = require('./scenario/shape') as typeof import('./scenario/shape');
  const { VALID } = require('./scenario/inputs') as typeof import('./scenario/inputs');
  const { measure } = require('./harness') as typeof import('./harness');
  const { getMetadataStorage } = require('class-validator') as typeof import('class-validator');

  generateClassValidatorDtos(dtos - 1);
  const registered = (getMetadataStorage() as unknown as { validationMetadatas: Map<unknown, unknown> })
    .validationMetadatas.size;
  const pipeline = ctcvPipeline(new Map([[TOOL_NAME, scheduleMeetingCvTool]]));
  const check = await pipeline(VALID);
  if (!check.ok) throw new Error(`CT+CV refused the valid call: ${check.message}`);
  const measured = await measure([{ id: 'ctcv', fn: () => pipeline(VALID) }], {
    timeMs: 600,
    rounds: 3,
    minSamplesPerRound: 4,
    targetBatchUs: 40,
  });
  emit({
    tools: dtos,
    registeredClasses: registered,
    results: [...measured.values()].map((m) => ({ ...m, label: 'class-transformer + class-validator pipeline' })),
  });
}

async function build(tools: number): Promise<void> {
  const started = performance.now();
  const core = require('@toolwright/core') as typeof import('@toolwright/core');
  const imported = performance.now();
  const { generateToolwrightCommands } = require('./generate-toolwright') as typeof import('./generate-toolwright');
  const generatorLoaded = performance.now();
  const generated = generateToolwrightCommands(tools);
  const decorated = performance.now();
  const registry = core.ToolRegistry.from(
    generated.map((tool) => tool.command),
    { logger: core.silentLogger },
  );
  const built = performance.now();
  const executor = new core.PersonaToolExecutor(registry, { logger: core.silentLogger });
  const first = generated[0]!;
  const callStarted = performance.now();
  const result = await executor.execute({ id: 'c1', name: first.name, arguments: first.sampleArguments });
  const called = performance.now();
  if (!result.ok) throw new Error(`first call refused: ${result.error.message}`);
  if (registry.size !== tools) throw new Error(`expected ${tools} tools, registered ${registry.size}`);
  emit({
    tools,
    importCoreMs: imported - started,
    decorateMs: decorated - generatorLoaded,
    registryFromMs: built - decorated,
    firstCallMs: called - callStarted,
  });
}

async function memory(tools: number): Promise<void> {
  const settle = settledHeap('memory');
  const core = require('@toolwright/core') as typeof import('@toolwright/core');
  const { generateToolwrightCommands } = require('./generate-toolwright') as typeof import('./generate-toolwright');
  // Load everything the later steps touch before the first reading, so module code is not counted.
  const warm = generateToolwrightCommands(5, 1_000_000);
  const warmRegistry = core.ToolRegistry.from(
    warm.map((tool) => tool.command),
    { logger: core.silentLogger },
  );
  const warmExecutor = new core.PersonaToolExecutor(warmRegistry, { logger: core.silentLogger });
  for (const tool of warm) await warmExecutor.execute({ id: 'w', name: tool.name, arguments: tool.sampleArguments });

  const before = settle();
  const generated = generateToolwrightCommands(tools);
  const afterDecorate = settle();
  const registry = core.ToolRegistry.from(
    generated.map((tool) => tool.command),
    { logger: core.silentLogger },
  );
  const afterRegistry = settle();
  const executor = new core.PersonaToolExecutor(registry, { logger: core.silentLogger });
  for (const tool of generated) {
    const result = await executor.execute({ id: 'm', name: tool.name, arguments: tool.sampleArguments });
    if (!result.ok) throw new Error(`${tool.name} refused its sample arguments: ${result.error.message}`);
  }
  const afterCalls = settle();
  emit({
    tools,
    decoratedBytesPerTool: (afterDecorate - before) / tools,
    registryBytesPerTool: (afterRegistry - afterDecorate) / tools,
    afterFirstCallsBytesPerTool: (afterCalls - afterRegistry) / tools,
    totalBytesPerTool: (afterCalls - before) / tools,
    keep: [generated.length, registry.size, warm.length].join(','),
  });
}

async function realistic(tools: number): Promise<void> {
  const { measureRealistic } = require('./realistic/round-robin') as typeof import('./realistic/round-robin');
  emit(await measureRealistic(tools));
}

/**
 * Heap per class command of its own shape (the realistic shapes): what ToolRegistry.from, the executor and two calls
 * of each command (different arguments) hold, beyond what decorating the classes takes (reported apart).
 */
async function memoryDistinct(tools: number): Promise<void> {
  const settle = settledHeap('memory-distinct');
  const core = require('@toolwright/core') as typeof import('@toolwright/core');
  const { argumentVariants, shapeSpecs } = require('./realistic/shapes') as typeof import('./realistic/shapes');
  const { classCommand } = require('./realistic/toolwright') as typeof import('./realistic/toolwright');
  const callAll = async (
    executor: import('@toolwright/core').PersonaToolExecutor,
    shapes: readonly import('./realistic/shapes').ShapeSpec[],
    variants: readonly string[][],
  ) => {
    for (let call = 0; call < 2; call++) {
      for (let index = 0; index < shapes.length; index++) {
        const result = await executor.execute({
          id: 'm',
          name: shapes[index]!.name,
          arguments: variants[index]![call]!,
        });
        if (!result.ok) throw new Error(`${shapes[index]!.name} refused its arguments: ${result.error.message}`);
      }
    }
  };
  // Load everything the later steps touch before the first reading, so module code is not counted.
  const warmShapes = shapeSpecs(5, 1_000_000);
  const warmRegistry = core.ToolRegistry.from(warmShapes.map(classCommand), { logger: core.silentLogger });
  const warmExecutor = new core.PersonaToolExecutor(warmRegistry, { logger: core.silentLogger });
  await callAll(
    warmExecutor,
    warmShapes,
    warmShapes.map((shape) => argumentVariants(shape, 2)),
  );

  // The shapes and argument texts are the benchmark's data: made before the first reading.
  const shapes = shapeSpecs(tools);
  const variants = shapes.map((shape) => argumentVariants(shape, 2));
  const before = settle();
  const commands = shapes.map(classCommand);
  const afterDecorate = settle();
  const registry = core.ToolRegistry.from(commands, { logger: core.silentLogger });
  const executor = new core.PersonaToolExecutor(registry, { logger: core.silentLogger });
  const afterRegistry = settle();
  await callAll(executor, shapes, variants);
  const afterCalls = settle();
  emit({
    tools,
    decoratedBytesPerTool: (afterDecorate - before) / tools,
    registryBytesPerTool: (afterRegistry - afterDecorate) / tools,
    afterCallsBytesPerTool: (afterCalls - afterRegistry) / tools,
    beyondDecoratingBytesPerTool: (afterCalls - afterDecorate) / tools,
    heapUsedMiB: afterCalls / 1024 / 1024,
    keep: [commands.length, registry.size, warmRegistry.size].join(','),
  });
}

/** CPU time (and wall time) of `ToolRegistry.from` for <tools> class commands of distinct shapes, decorated before. */
function registryFrom(tools: number): void {
  const core = require('@toolwright/core') as typeof import('@toolwright/core');
  const { shapeSpecs } = require('./realistic/shapes') as typeof import('./realistic/shapes');
  const { classCommand } = require('./realistic/toolwright') as typeof import('./realistic/toolwright');
  const { cpuMs } = require('./harness') as typeof import('./harness');
  const shapes = shapeSpecs(tools);
  const decorateStarted = cpuMs();
  const commands = shapes.map(classCommand);
  const cpuStarted = cpuMs();
  const wallStarted = performance.now();
  const registry = core.ToolRegistry.from(commands, { logger: core.silentLogger });
  const wallMs = performance.now() - wallStarted;
  const fromCpuMs = cpuMs() - cpuStarted;
  if (registry.size !== tools) throw new Error(`expected ${tools} tools, registered ${registry.size}`);
  emit({ tools, decorateCpuMs: cpuStarted - decorateStarted, fromCpuMs, fromWallMs: wallMs });
}

async function main(): Promise<void> {
  const [mode, countText] = process.argv.slice(2);
  const count = Number(countText);
  if (!Number.isInteger(count) || count < 1)
    throw new Error(`usage: child.js <mode> <count> (got ${process.argv.slice(2).join(' ')})`);
  switch (mode) {
    case 'scale-tw':
      return scaleToolwright(count);
    case 'scale-json':
      return scaleJsonSchema(count);
    case 'memory-json':
      return memoryJsonSchema(count);
    case 'scale-cv':
      return scaleClassValidator(count);
    case 'build':
      return build(count);
    case 'memory':
      return memory(count);
    case 'realistic':
      return realistic(count);
    case 'memory-distinct':
      return memoryDistinct(count);
    case 'registry-from':
      return registryFrom(count);
    default:
      throw new Error(`unknown mode ${mode}`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
