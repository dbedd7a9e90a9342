export * from './schema';
export * from './definition';
export * from './execution';
export * from './handler';
export * from './cross-field';
export * from './content';
