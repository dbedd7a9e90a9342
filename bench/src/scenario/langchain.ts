import { tool, type StructuredToolInterface } from '@langchain/core/tools';
import { TOOL_DESCRIPTION, TOOL_NAME, scheduleMeeting, type BenchCall, type Outcome } from './shape';
import { scheduleMeetingSchema } from './zod';

/** LangChain's `tool()` with the same zod schema; `tool.invoke(args)` validates and runs it. */
export const scheduleMeetingLangChainTool = tool(async (input) => scheduleMeeting(input), {
  name: TOOL_NAME,
  description: TOOL_DESCRIPTION,
  schema: scheduleMeetingSchema,
});

/** JSON text -> lookup -> `tool.invoke` (validation, callbacks, the function); a refusal is the thrown message. */
export function langChainPipeline(tools: ReadonlyMap<string, StructuredToolInterface>) {
  return async (call: BenchCall): Promise<Outcome> => {
    const found = tools.get(call.name);
    if (found === undefined) return { ok: false, message: `There is no tool named "${call.name}".` };
    let raw: unknown;
    try {
      raw = JSON.parse(call.arguments);
    } catch {
      return { ok: false, message: 'The arguments are not valid JSON; send one JSON object.' };
    }
    try {
      return { ok: true, value: await found.invoke(raw as Record<string, unknown>) };
    } catch (error) {
      return { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
  };
}
