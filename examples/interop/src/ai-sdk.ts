import 'reflect-metadata';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs } from 'ai';
import { createRepairToolCall, toAISDKTools } from '@toolwright/interop/ai-sdk';
import { createExecutor, MODEL_ARGUMENTS } from './meeting';
import { startStubModelServer } from './stub-model-server';

/** node examples/interop/dist/ai-sdk.js: generateText drives a toolwright command; the model is a local stub. */
async function main(): Promise<void> {
  const server = await startStubModelServer('schedule_meeting', MODEL_ARGUMENTS, 'The standup is scheduled.');
  try {
    const executor = createExecutor();
    const model = createOpenAI({ baseURL: server.baseURL, apiKey: 'no-key-needed' }).chat('gpt-4o-mini');
    const transformations: string[] = [];
    const result = await generateText({
      model,
      tools: toAISDKTools(executor, {
        context: { sessionId: 'session-from-your-auth' },
        onResult: (toolResult) =>
          transformations.push(...toolResult.transformations.map((change) => `${change.path}: ${change.rule}`)),
      }),
      repairToolCall: createRepairToolCall(executor),
      prompt: 'Schedule the standup with Ana and Bo for 30 minutes.',
      stopWhen: stepCountIs(3),
    });
    const [toolResult] = result.steps[0]?.toolResults ?? [];
    console.log(
      JSON.stringify({ framework: 'ai-sdk', answer: result.text, toolOutput: toolResult?.output, transformations }),
    );
  } finally {
    await server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
