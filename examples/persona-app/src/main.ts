import 'reflect-metadata';
import { PersonaToolExecutor, silentLogger, type ToolResult } from '@toolwright/core';
import { createPersonaRegistry, replayCalls } from './index';

function section(title: string): void {
  console.log(`\n${'='.repeat(78)}\n${title}\n${'='.repeat(78)}`);
}

function printResult(result: ToolResult): void {
  for (const transformation of result.transformations) {
    const where = transformation.rule.startsWith('tool-name-') ? '(tool name)' : transformation.path || '(arguments)';
    console.log(`  fix   ${where}: ${transformation.rule}  ${short(transformation.from)} -> ${short(transformation.to)}`);
  }
  if (result.ok) console.log(`  ok    ${short(result.value, 200)}`);
  else console.log(`  error ${result.error.code}\n        ${result.error.message.split('\n').join('\n        ')}`);
}

function short(value: unknown, length = 90): string {
  const text = value === undefined ? 'absent' : typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value);
  return text.length > length ? `${text.slice(0, length - 3)}...` : text;
}

async function main(): Promise<void> {
  const registry = createPersonaRegistry();

  section('1. The registry: each command as the JSON Schema a model sees (context fields never appear)');
  for (const definition of registry.list()) {
    console.log(`\n${definition.name}: ${definition.description}`);
    console.log(JSON.stringify(registry.toJsonSchema(definition.name), null, 2));
  }

  section('2. Replaying realistic malformed tool calls through the PersonaToolExecutor');
  const executor = new PersonaToolExecutor(registry, { logger: silentLogger });
  for (const { title, call, context } of replayCalls) {
    console.log(`\n> ${title}\n  call  ${call.name}(${short(call.arguments, 120)})`);
    printResult(await executor.execute(call, context));
  }

  section('3. What the models sent most (TransformationStats)');
  for (const entry of executor.stats.snapshot().slice(0, 10)) console.log(`  ${String(entry.count).padStart(3)}  ${entry.tool}  ${entry.rule}`);
  console.log(`  security events (model tried to set trusted context): ${executor.stats.securityEvents}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
