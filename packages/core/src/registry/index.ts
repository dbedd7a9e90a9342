export {
  ToolRegistry,
  NoParams,
  type ToolRegistryOptions,
  type ToolRegistryChange,
  type ToolRegistryListener,
} from './tool-registry';
export type {
  StandardJsonSchemaValidator,
  StandardSchemaToolDeclaration,
  StandardSchemaToolHandler,
} from './standard-schema-tool';
