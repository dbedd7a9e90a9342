import { Type, plainToInstance } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsISO8601,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  ValidateNested,
  validate,
  type ValidationError,
} from 'class-validator';
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
  type Priority,
} from './shape';

/** The 6-field DTO as a plain class-transformer + class-validator user writes it (no toolwright). */
export class CvAttendee {
  @IsEmail()
  email!: string;

  @IsOptional()
  @IsBoolean()
  optional?: boolean;
}

export class CvScheduleMeetingParams {
  @IsIn(PRIORITIES)
  priority!: Priority;

  @IsArray()
  @IsISO8601({ strict: true, strictSeparator: true }, { each: true })
  slots!: string[];

  @IsInt()
  @Min(DURATION_MIN)
  @Max(DURATION_MAX)
  durationMinutes!: number;

  @IsBoolean()
  sendInvites!: boolean;

  @IsString()
  @Length(TITLE_MIN, TITLE_MAX)
  title!: string;

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => CvAttendee)
  attendees!: CvAttendee[];
}

export const CV_OPTIONS = { whitelist: true, forbidUnknownValues: true } as const;

/** plainToInstance + validate on an already-parsed object; the errors, or none. */
export async function ctcvValidate<T extends object>(
  dto: new () => T,
  plain: unknown,
): Promise<{ instance: T; errors: ValidationError[] }> {
  const instance = plainToInstance(dto, plain as object);
  const errors = await validate(instance, CV_OPTIONS);
  return { instance, errors };
}

/** class-validator's error tree as the lines a model reads. */
export function renderCvErrors(tool: string, errors: readonly ValidationError[]): string {
  const lines: string[] = [];
  const walk = (list: readonly ValidationError[], parent: string) => {
    for (const error of list) {
      const path =
        parent === ''
          ? error.property
          : /^\d+$/.test(error.property)
            ? `${parent}[${error.property}]`
            : `${parent}.${error.property}`;
      for (const text of Object.values(error.constraints ?? {})) lines.push(`- ${path}: ${text}`);
      if (error.children && error.children.length > 0) walk(error.children, path);
    }
  };
  walk(errors, '');
  return `The arguments for "${tool}" are invalid:\n${lines.join('\n')}\nFix these arguments and call "${tool}" again.`;
}

export interface CvTool {
  readonly dto: new () => object;
  readonly handler: (params: never) => unknown;
  /** Applied before plainToInstance (the malformed case: the hand-written fixer); identity otherwise. */
  readonly normalize?: (raw: unknown) => unknown;
}

/** The CT+CV pipeline: JSON text -> lookup -> plainToInstance -> validate (+ message) -> handler. */
export function ctcvPipeline(tools: ReadonlyMap<string, CvTool>) {
  return async (call: BenchCall): Promise<Outcome> => {
    const tool = tools.get(call.name);
    if (tool === undefined) return unknownToolOutcome(call.name);
    let raw = parseArguments(call.arguments);
    if (raw === NOT_JSON) return NOT_JSON_OUTCOME;
    if (tool.normalize) raw = tool.normalize(raw);
    const { instance, errors } = await ctcvValidate(tool.dto, raw);
    if (errors.length > 0) return { ok: false, message: renderCvErrors(call.name, errors) };
    return { ok: true, value: await (tool.handler as (params: object) => unknown)(instance) };
  };
}

export const scheduleMeetingCvTool: CvTool = {
  dto: CvScheduleMeetingParams,
  handler: (params: CvScheduleMeetingParams) => scheduleMeeting(params),
};
