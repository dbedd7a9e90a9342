/**
 * @toolwright/interop: toolwright commands as tools of other agent frameworks, one subpath each, every framework an
 * optional peer: `@toolwright/interop/ai-sdk` (Vercel AI SDK), `/langchain` (LangChain.js, LangGraph),
 * `/openai-agents` (OpenAI Agents SDK). This root holds only what they share and imports no framework.
 */
export { pickExecutionContext, ToolResultError, frameworkToolNames, type ContextSource } from './shared';
