import 'reflect-metadata';
import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled } from '@openai/agents';
import OpenAI from 'openai';
import { toAgentsTools } from '@toolwright/interop/openai-agents';
import { createExecutor, MODEL_ARGUMENTS } from './meeting';
import { startStubModelServer } from './stub-model-server';

/** node examples/interop/dist/openai-agents.js: an Agents SDK run drives a toolwright command; the model is a local stub. */
async function main(): Promise<void> {
  setTracingDisabled(true); // nothing leaves the machine
  const server = await startStubModelServer('schedule_meeting', MODEL_ARGUMENTS, 'The standup is scheduled.');
  try {
    const transformations: string[] = [];
    let toolOutput: unknown;
    const agent = new Agent<{ sessionId: string }>({
      name: 'Scheduler',
      instructions: 'Schedule meetings with the schedule_meeting tool.',
      model: new OpenAIChatCompletionsModel(
        new OpenAI({ baseURL: server.baseURL, apiKey: 'no-key-needed', maxRetries: 0 }),
        'gpt-4o-mini',
      ),
      tools: toAgentsTools(createExecutor(), {
        onResult: (result) => {
          transformations.push(...result.transformations.map((change) => `${change.path}: ${change.rule}`));
          if (result.ok) toolOutput = result.value;
        },
      }),
    });
    // The run context (set by your app) is the trusted execution context: its sessionId reaches the command.
    const result = await run(agent, 'Schedule the standup with Ana and Bo for 30 minutes.', {
      context: { sessionId: 'session-from-your-auth' },
      maxTurns: 3,
    });
    console.log(
      JSON.stringify({ framework: 'openai-agents', answer: result.finalOutput, toolOutput, transformations }),
    );
  } finally {
    await server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
