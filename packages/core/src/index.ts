// Public API of @toolwright/core. Adding a symbol here makes it public: keep each area's own index explicit.
import './metadata/require-reflect-metadata';

export * from './types';
export * from './errors';
export * from './execution/logger';
export * from './metadata';
export * from './decorators';
export * from './schema';
export * from './validation';
export * from './registry';
export * from './pipeline';
export * from './execution';
export * from './loop';
export * from './builtins';
