export { toStandardSchema, type ToolwrightStandardSchema, type StandardSchemaOptions } from './to-standard-schema';
