export {
  ToolRegistry,
  NoParams,
  type RegisteredTool,
  type ToolImplementation,
  type ToolRegistryOptions,
  type ToolRegistryChange,
  type ToolRegistryListener,
} from './tool-registry';
