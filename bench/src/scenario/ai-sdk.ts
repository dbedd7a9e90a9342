import { InvalidToolInputError, tool, type Tool } from 'ai';
import { asSchema, executeTool, safeParseJSON } from '@ai-sdk/provider-utils';
import { TOOL_DESCRIPTION, scheduleMeeting, type BenchCall, type Outcome } from './shape';
import { scheduleMeetingSchema } from './zod';

/**
 * The Vercel AI SDK's tool path, isolated from a model call: what `generateText` does for each tool call the model
 * returns (`doParseToolCall` in ai 7: own-property lookup, `asSchema(tool.inputSchema)`, `safeParseJSON({ text,
 * schema })`, an `InvalidToolInputError` on failure), then `executeTool` (what `executeToolCall` runs, without the
 * telemetry span and callbacks around it). The SDK exports no single function for this, so it is reassembled here
 * from the same exported pieces (`ai` and its `@ai-sdk/provider-utils`).
 */
export const scheduleMeetingAiTool = tool({
  description: TOOL_DESCRIPTION,
  inputSchema: scheduleMeetingSchema,
  execute: async (input) => scheduleMeeting(input),
});

export function aiSdkPipeline(tools: Readonly<Record<string, Tool>>) {
  return async (call: BenchCall): Promise<Outcome> => {
    const found = Object.hasOwn(tools, call.name) ? tools[call.name] : undefined;
    if (found === undefined) return { ok: false, message: `There is no tool named "${call.name}".` };
    const schema = asSchema(found.inputSchema);
    const parsed =
      call.arguments.trim() === ''
        ? { success: false as const, error: new Error('empty') }
        : await safeParseJSON({ text: call.arguments, schema });
    if (!parsed.success) {
      const error = new InvalidToolInputError({ toolName: call.name, toolInput: call.arguments, cause: parsed.error });
      return { ok: false, message: error.message };
    }
    let output: unknown;
    for await (const part of executeTool({
      tool: found as Parameters<typeof executeTool>[0]['tool'],
      input: parsed.value,
      options: { toolCallId: call.id, messages: [], context: {} as never },
    })) {
      if (part.type === 'final') output = part.output;
    }
    return { ok: true, value: output };
  };
}
