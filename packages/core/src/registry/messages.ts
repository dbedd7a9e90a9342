import { DefinitionError } from '../errors/definition-error';
import { UnknownToolError } from '../errors/unknown-tool-error';
import type { ToolDefinition } from '../types/definition';

/** How a definition's source reads in a message: `class ProposeCommand`, `JSON Schema tool`, `compact declaration`. */
export function describeSource(definition: ToolDefinition): string {
  switch (definition.source.kind) {
    case 'class':
      return `class ${definition.source.command.name}`;
    case 'json-schema':
      return 'a JSON Schema tool';
    case 'compact':
      return 'a compact declaration';
  }
}

export const registryMessages = {
  emptyParams: (name: string, command: string, dto: string) =>
    `Tool "${name}" (class ${command}): its parameter DTO ${dto} has no decorated property, so the tool takes no arguments. ` +
    'If it should take some, decorate them (@ToolParam, @ArrayOf, ...); if it takes none, use `params: NoParams`.',

  duplicateWarning: (name: string, previous: ToolDefinition, replacement: ToolDefinition) =>
    `Tool "${name}" is registered twice: ${describeSource(replacement)} replaces ${describeSource(previous)}. ` +
    "Give one of them another name, or create the registry with { onDuplicate: 'error' } to make this an error.",

  duplicateError: (name: string, previous: ToolDefinition, replacement: ToolDefinition) =>
    new DefinitionError(`a tool named "${name}" is already registered (${describeSource(previous)}).`, {
      target: describeSource(replacement),
      fix: 'give one of the tools another name, or unregister the earlier one first.',
    }),

  invalidDefinition: (problem: string) =>
    new DefinitionError(`Cannot register the tool definition: ${problem}.`, {
      fix: 'build definitions with buildCommandDefinition, definitionFromJsonSchema or definitionFromCompact.',
    }),

  invalidImplementation: (name: string, problem: string) =>
    new DefinitionError(`has an invalid implementation: ${problem}.`, {
      target: `tool "${name}"`,
      fix: "pass { kind: 'class', command: SomeCommand } (a class with execute) or { kind: 'function', handler: (params, invocation) => ... }.",
    }),

  unknownTool: (name: string) => new UnknownToolError(`Unknown tool "${name}": no tool with this name is registered.`),

  listenerFailed: (name: string) =>
    `A registry change listener threw while tool "${name}" changed; the change itself was applied.`,
};
