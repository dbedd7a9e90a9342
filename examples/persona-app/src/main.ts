import 'reflect-metadata';
import { PersonaToolExecutor, runToolLoop, silentLogger, type ToolLoopStep, type ToolResult } from '@toolwright/core';
import { createPersonaRegistry, replayCalls } from './index';
import { createScriptedPlanner } from './scripted-conversation';
import { runCrossFieldExample } from './cross-field-example';

function section(title: string): void {
  console.log(`\n${'='.repeat(78)}\n${title}\n${'='.repeat(78)}`);
}

function printResult(result: ToolResult): void {
  for (const transformation of result.transformations) {
    const where = transformation.rule.startsWith('tool-name-') ? '(tool name)' : transformation.path || '(arguments)';
    console.log(
      `  fix   ${where}: ${transformation.rule}  ${short(transformation.from)} -> ${short(transformation.to)}`,
    );
  }
  if (result.ok) console.log(`  ok    ${short(result.value, 200)}`);
  else console.log(`  error ${result.error.code}\n        ${result.error.message.split('\n').join('\n        ')}`);
}

function printStep(step: ToolLoopStep): void {
  console.log(
    `\n[turn ${step.index + 1}] model${step.turn.text ? `: ${JSON.stringify(step.turn.text)}` : ''}${step.turn.toolCalls.length === 0 ? ' (final answer)' : ''}`,
  );
  for (const entry of step.calls) {
    console.log(`  call  ${entry.call.name}(${short(entry.call.arguments, 110)})`);
    for (const transformation of entry.result.transformations)
      console.log(`  fix   ${transformation.path || '(arguments)'}: ${transformation.rule}`);
    const attempt =
      entry.attempt !== undefined ? ` (attempt ${entry.attempt}, ${entry.retriesAllowed} retries allowed)` : '';
    console.log(
      `  ${entry.result.ok ? 'ok   ' : 'error'} ${entry.result.ok ? '' : `${entry.result.error.code}${attempt}: `}sent back to the model:`,
    );
    console.log(`        ${entry.message.split('\n').join('\n        ')}`);
  }
}

function short(value: unknown, length = 90): string {
  const text =
    value === undefined ? 'absent' : typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value);
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

  section(
    '3. One tool loop against the built-in scripted model (a refused call, resolve_relative_date, the retried call)',
  );
  const loop = await runToolLoop({
    model: createScriptedPlanner(),
    executor,
    messages: [{ role: 'user', content: 'What is on my calendar tomorrow? Also set up a vote on the review slot.' }],
    context: { ...replayCalls[0]!.context, now: new Date('2026-11-21T10:00:00Z') },
    logger: silentLogger,
    onStep: printStep,
  });
  console.log(`\n  loop ${loop.status} after ${loop.steps.length} model turns: ${JSON.stringify(loop.text)}`);

  section('4. What the models sent most (TransformationStats)');
  for (const entry of executor.stats.snapshot().slice(0, 10))
    console.log(`  ${String(entry.count).padStart(3)}  ${entry.tool}  ${entry.rule}`);
  console.log(`  security events (model tried to set trusted context): ${executor.stats.securityEvents}`);

  section('5. A cross-field rule (@Command({ validate })): the call that breaks it, the message, the fixed retry');
  const meeting = await runCrossFieldExample({ onStep: printStep });
  console.log(`\n  loop ${meeting.status} after ${meeting.steps.length} model turns: ${JSON.stringify(meeting.text)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
