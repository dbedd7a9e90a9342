import type { ToolDefinition } from '../types/definition';
import type { PersonaContext } from '../types/execution';

function matches(pattern: string, name: string): boolean {
  if (pattern === '*' || pattern === name) return true;
  return pattern.endsWith('*') && name.startsWith(pattern.slice(0, -1));
}

/**
 * Pipeline step 2: may this persona call this tool? The allow-lists come from trusted configuration in the
 * context, never from the model. A tool is allowed when it is in `allowedTools` (exact or `prefix*`) or carries a
 * tag in `allowedTags` (when either list is given), and the persona holds every permission the tool requires.
 */
export function isToolAllowed(definition: ToolDefinition, persona: PersonaContext | undefined): boolean {
  const required = definition.options.permissions ?? [];
  if (!persona) return required.length === 0;
  const { allowedTools, allowedTags } = persona;
  if (allowedTools || allowedTags) {
    const byName = allowedTools?.some((pattern) => matches(pattern, definition.name)) ?? false;
    const byTag = allowedTags?.some((tag) => definition.options.tags?.includes(tag)) ?? false;
    if (!byName && !byTag) return false;
  }
  const held = new Set(persona.permissions ?? []);
  return required.every((permission) => held.has(permission));
}
