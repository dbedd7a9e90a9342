import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import {
  NOT_JSON,
  NOT_JSON_OUTCOME,
  parseArguments,
  scheduleMeeting,
  unknownToolOutcome,
  type BenchCall,
  type Outcome,
  type ScheduleMeetingShape,
} from './shape';
import { isEmail, isOffsetDateTime } from './formats';

/**
 * ajv, compiled from the JSON Schema toolwright exports for the command (`registry.toJsonSchema(name)`, draft
 * 2020-12), with every error collected (`allErrors`) so the model sees them all, as with the other paths.
 */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  ajv.addFormat('date-time', { type: 'string', validate: isOffsetDateTime });
  ajv.addFormat('email', { type: 'string', validate: isEmail });
  return ajv;
}

export interface AjvTool {
  readonly validate: ValidateFunction;
  readonly handler: (params: never) => unknown;
  readonly normalize?: (raw: unknown) => unknown;
}

/** The ajv pipeline: JSON text -> lookup -> validate (+ errorsText) -> handler. */
export function ajvPipeline(ajv: Ajv2020, tools: ReadonlyMap<string, AjvTool>) {
  return async (call: BenchCall): Promise<Outcome> => {
    const tool = tools.get(call.name);
    if (tool === undefined) return unknownToolOutcome(call.name);
    let raw = parseArguments(call.arguments);
    if (raw === NOT_JSON) return NOT_JSON_OUTCOME;
    if (tool.normalize) raw = tool.normalize(raw);
    if (!tool.validate(raw)) {
      return {
        ok: false,
        message: `The arguments for "${call.name}" are invalid:\n${ajv.errorsText(tool.validate.errors, { separator: '\n', dataVar: 'arguments' })}`,
      };
    }
    return { ok: true, value: await (tool.handler as (params: unknown) => unknown)(raw) };
  };
}

export function scheduleMeetingAjvTool(validate: ValidateFunction): AjvTool {
  return { validate, handler: (params: ScheduleMeetingShape) => scheduleMeeting(params) };
}
