// The validation area: toolwright's class-validator rules, applied to DTO classes when a definition is built.
export { buildObjectSchema, buildCommandDefinition } from './build';
export * from './synthesize-dto';
