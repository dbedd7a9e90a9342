// Snippets of docs/tool-definitions-ir.md. CI type-checks this file (tsconfig.test.json) and
// packages/core/test/unit/schema/docs-ir-snippets.spec.ts runs it.
import 'reflect-metadata';
import {
  ArrayOf,
  Command,
  DefinitionError,
  FromContext,
  ToolParam,
  buildCommandDefinition,
  definitionFromCompact,
  definitionFromJsonSchema,
  parseTypeExpression,
  toJsonSchema,
  type JsonSchemaObject,
  type ParamSchema,
  type ToolDefinition,
} from '@toolwright/core';

// --- Source 1: a decorated class ------------------------------------------------------------------------------
class ProposalOption {
  @ToolParam({ description: 'Short name of the option' })
  label!: string;

  @ToolParam({ description: 'What choosing it means' })
  description!: string;

  @ToolParam({ required: false })
  proposedBy?: string;
}

class ProposeParams {
  @ToolParam({ description: 'What to decide' })
  question!: string;

  @ArrayOf(() => ProposalOption, { minItems: 2 })
  options!: ProposalOption[];

  @FromContext('session_id')
  sessionId!: string;
}

@Command({ name: 'decision/propose', description: 'Propose a decision with its options', params: ProposeParams })
class ProposeDecisionCommand {
  execute(params: ProposeParams): string {
    return `${params.options.length} options proposed`;
  }
}

export const fromClass: ToolDefinition = buildCommandDefinition(ProposeDecisionCommand);

// --- Source 2: a JSON Schema (here an MCP server's tools/list entry) -----------------------------------------
export const fromJsonSchema: ToolDefinition = definitionFromJsonSchema(
  {
    name: 'read_file',
    description: 'Read a text file',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', minLength: 1 },
        encoding: { type: 'string', enum: ['utf8', 'latin1'], default: 'utf8' },
        modifiedAfter: { type: ['string', 'null'], format: 'date-time' },
      },
      required: ['path'],
    },
  },
  // Schemas from a server are untrusted: limits apply, ReDoS-prone patterns are refused.
  { namespace: 'filesystem', untrusted: true },
);

// --- Source 3: the compact declaration ---------------------------------------------------------------------
export const fromCompact: ToolDefinition = definitionFromCompact({
  command_name: 'get_calendar_events',
  description: 'List the events at the given instants',
  parameters: [
    { name: 'resolved_datetimes', type: 'array<datetime>', required: true, description: 'ISO-8601 with offset' },
    { name: 'calendar', type: 'string', required: false },
  ],
});

// --- One grammar expression, e.g. for @ToolParam({ type }) -------------------------------------------------------
export const datetimes: ParamSchema = parseTypeExpression('datetime[]'); // { kind: 'array', items: { kind: 'datetime' } }

// --- JSON Schema out: what every provider adapter starts from --------------------------------------------------
export const proposeJsonSchema: JsonSchemaObject = toJsonSchema(fromClass); // no sessionId: context fields are never exported

// --- A refusal: never a silently dropped constraint ----------------------------------------------------------------
export function refusal(): string {
  try {
    definitionFromJsonSchema({
      name: 'search',
      parameters: { type: 'object', properties: { query: { type: 'string', not: { const: '' } } } },
    });
    return 'imported';
  } catch (error) {
    if (error instanceof DefinitionError) return error.message;
    throw error;
  }
}
