export {
  ToolRegistry,
  NoParams,
  type ToolRegistryOptions,
  type ToolRegistryChange,
  type ToolRegistryListener,
} from './tool-registry';
