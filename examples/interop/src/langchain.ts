import 'reflect-metadata';
import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { ChatOpenAI } from '@langchain/openai';
import { toLangChainTools, type ToolwrightArtifact } from '@toolwright/interop/langchain';
import { createExecutor, MODEL_ARGUMENTS } from './meeting';
import { startStubModelServer } from './stub-model-server';

/** node examples/interop/dist/langchain.js: bindTools + LangGraph's ToolNode drive a toolwright command; the model is a local stub. */
async function main(): Promise<void> {
  const server = await startStubModelServer('schedule_meeting', MODEL_ARGUMENTS, 'The standup is scheduled.');
  try {
    const tools = toLangChainTools(createExecutor());
    const model = new ChatOpenAI({
      model: 'gpt-4o-mini',
      apiKey: 'no-key-needed',
      maxRetries: 0,
      configuration: { baseURL: server.baseURL },
    }).bindTools(tools);
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('agent', async (state) => ({ messages: [await model.invoke(state.messages)] }))
      .addNode('tools', new ToolNode(tools))
      .addEdge(START, 'agent')
      .addConditionalEdges('agent', toolsCondition, ['tools', END])
      .addEdge('tools', 'agent')
      .compile();

    // The session id comes from the run's config (set by your app), never from the model.
    const final = await graph.invoke(
      { messages: [new HumanMessage('Schedule the standup with Ana and Bo for 30 minutes.')] },
      { configurable: { sessionId: 'session-from-your-auth' }, recursionLimit: 6 },
    );
    const toolMessage = final.messages.find((message): message is ToolMessage => ToolMessage.isInstance(message));
    const artifact = toolMessage?.artifact as ToolwrightArtifact | undefined;
    console.log(
      JSON.stringify({
        framework: 'langchain',
        answer: final.messages.at(-1)?.content,
        toolOutput: JSON.parse(typeof toolMessage?.content === 'string' ? toolMessage.content : 'null'),
        transformations: artifact?.toolwright.transformations.map((change) => `${change.path}: ${change.rule}`) ?? [],
      }),
    );
  } finally {
    await server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
