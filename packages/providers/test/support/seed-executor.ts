import {
  PersonaToolExecutor,
  silentLogger,
  type ExecutionContext,
  type ToolCall,
  type ToolResult,
} from '@toolwright/core';
import { seedRegistry } from './seed-commands';

/** The arguments a stub model sends for each seed command, and what the commands return for them. */
export const PROPOSE_ARGUMENTS = {
  question: 'Lunch?',
  options: [
    { label: 'Pizza', description: 'Fast' },
    { label: 'Sushi', description: 'Fresh', proposedBy: 'Ann' },
  ],
};
export const PROPOSE_VALUE = {
  question: 'Lunch?',
  options: [
    { label: 'Pizza', proposedBy: null },
    { label: 'Sushi', proposedBy: 'Ann' },
  ],
  sessionId: 's-1',
};
export const CALENDAR_ARGUMENTS = { resolved_datetimes: ['2026-11-23T09:00:00-05:00'], max_results: 5 };
export const CALENDAR_VALUE = {
  events: [{ id: 'evt_1', title: 'Standup', start: '2026-11-23T09:00:00-05:00' }],
  includeDeclined: false,
};
export const CONTEXT: ExecutionContext = { sessionId: 's-1', jobId: 'j-1' };

export function seedExecutor() {
  const registry = seedRegistry();
  const executor = new PersonaToolExecutor(registry, { logger: silentLogger });
  return {
    registry,
    executor,
    run: (calls: readonly ToolCall[]): Promise<ToolResult[]> =>
      Promise.all(calls.map((call) => executor.execute(call, CONTEXT))),
  };
}
