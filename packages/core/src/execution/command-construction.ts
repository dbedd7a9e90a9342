// Moved to registry/command-construction.ts (registration checks a command class): this re-export keeps execution's imports working.
export * from '../registry/command-construction';
