import { registerRelativeDateTool, ToolRegistry, type ToolRegistryOptions } from '@toolwright/core';
import { GetCalendarEventsCommand } from './commands/get-calendar-events.command';
import { ProposeDecisionCommand } from './commands/propose-decision.command';
import { PublishArticleCommand } from './commands/publish-article.command';

export * from './commands/get-calendar-events.command';
export * from './commands/propose-decision.command';
export * from './commands/publish-article.command';
export * from './commands/book-meeting.command';
export { runCrossFieldExample } from './cross-field-example';
export { replayCalls, type ReplayCall } from './replay';

/** The example app's commands, listed explicitly at the composition root. */
export const personaCommands = [ProposeDecisionCommand, GetCalendarEventsCommand, PublishArticleCommand] as const;

/** The app's registry, with the built-in `resolve_relative_date` tool registered (it is opt-in). */
export function createPersonaRegistry(options?: ToolRegistryOptions): ToolRegistry {
  const registry = ToolRegistry.from([...personaCommands], options);
  registerRelativeDateTool(registry);
  return registry;
}
