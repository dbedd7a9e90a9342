export { Command } from './command.decorator';
export { ToolParam } from './tool-param.decorator';
export { ArrayOf } from './array-of.decorator';
export { DateTime } from './date-time.decorator';
export { DateOnly } from './date-only.decorator';
export { FromContext } from './from-context.decorator';
export type {
  CommandOptions,
  ToolParamOptions,
  ArrayOfOptions,
  DateParamOptions,
  FromContextOptions,
  ParamBaseOptions,
  ValueConstraintOptions,
  ArrayConstraintOptions,
  ParamTypeReference,
  ClassThunk,
  EnumOption,
} from '../types/param-options';
