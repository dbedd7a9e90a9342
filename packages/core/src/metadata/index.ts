// Public readers of the raw records decorators store. Only this folder touches `Reflect`.
export { COMMAND_METADATA, PARAM_METADATA } from './constants';
export { getCommandMetadata } from './command-metadata';
export { getParamMetadata, getOwnParamMetadata } from './param-metadata';
export { getValidatorMetadata } from './validator-metadata';
export type {
  CommandMetadata,
  ParamMetadata,
  ToolParamMetadata,
  ArrayOfMetadata,
  DateTimeMetadata,
  DateOnlyMetadata,
  FromContextMetadata,
  ValidatorMetadata,
} from './types';
