import { z } from 'zod';
import {
  NOT_JSON,
  NOT_JSON_OUTCOME,
  parseArguments,
  unknownToolOutcome,
  DURATION_MAX,
  DURATION_MIN,
  PRIORITIES,
  TITLE_MAX,
  TITLE_MIN,
  scheduleMeeting,
  type BenchCall,
  type Outcome,
} from './shape';

/** The 6-field DTO as a zod 4 schema (unknown keys stripped, as class-validator's whitelist does). */
export const attendeeSchema = z.object({
  email: z.email(),
  optional: z.boolean().optional(),
});

export const scheduleMeetingSchema = z.object({
  priority: z.enum(PRIORITIES),
  slots: z.array(z.iso.datetime({ offset: true })),
  durationMinutes: z.int().min(DURATION_MIN).max(DURATION_MAX),
  sendInvites: z.boolean(),
  title: z.string().min(TITLE_MIN).max(TITLE_MAX),
  attendees: z.array(attendeeSchema),
});

export interface ZodTool {
  readonly schema: z.ZodType;
  readonly handler: (params: never) => unknown;
  readonly normalize?: (raw: unknown) => unknown;
}

/** The zod pipeline: JSON text -> lookup -> safeParse (+ z.prettifyError) -> handler. */
export function zodPipeline(tools: ReadonlyMap<string, ZodTool>) {
  return async (call: BenchCall): Promise<Outcome> => {
    const tool = tools.get(call.name);
    if (tool === undefined) return unknownToolOutcome(call.name);
    let raw = parseArguments(call.arguments);
    if (raw === NOT_JSON) return NOT_JSON_OUTCOME;
    if (tool.normalize) raw = tool.normalize(raw);
    const result = tool.schema.safeParse(raw);
    if (!result.success)
      return { ok: false, message: `The arguments for "${call.name}" are invalid:\n${z.prettifyError(result.error)}` };
    return { ok: true, value: await (tool.handler as (params: unknown) => unknown)(result.data) };
  };
}

export const scheduleMeetingZodTool: ZodTool = {
  schema: scheduleMeetingSchema,
  handler: (params: z.infer<typeof scheduleMeetingSchema>) => scheduleMeeting(params),
};
