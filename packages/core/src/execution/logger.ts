// Moved to logging/logger.ts (a base layer every layer may use): this re-export keeps execution's imports working.
export * from '../logging/logger';
