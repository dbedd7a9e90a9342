// The README's example, verbatim inside a function (the README's top-level await is this function's await).
// docs-readme-snippet.spec.ts checks the README's block and this file stay the same, and runs it.
import 'reflect-metadata';
import { ArrayOf, Command, FromContext, PersonaToolExecutor, ToolParam, ToolRegistry } from '@toolwright/core';

export async function readmeExample() {

  class Option {
    @ToolParam({ description: 'Short name' }) label!: string;
    @ToolParam({ description: 'What it means' }) description!: string;
    @ToolParam({ required: false }) proposedBy?: string;
  }
  class ProposeParams {
    @ToolParam({ description: 'The question to decide' }) question!: string;
    @ArrayOf(() => Option, { minItems: 2 }) options!: Option[];
    @FromContext('session_id') sessionId?: string;               // trusted: never in any schema, never from the model
  }
  @Command({ name: 'decision/propose', description: 'Propose a decision', params: ProposeParams })
  class ProposeDecision {
    execute(params: ProposeParams) { return { question: params.question, options: params.options.length }; }
  }

  const executor = new PersonaToolExecutor(ToolRegistry.from([ProposeDecision]));
  const result = await executor.execute(
    { id: 'c1', name: 'decision/propose', arguments: `{'question': 'Ship?', 'options': '[{"label":"Yes","description":"now"},{"label":"No","description":"later"}]', 'session_id': 'forged'}` },
    { sessionId: 's1' },
  ); // result.ok; result.transformations lists the single-quote repair, the JSON-string array and the dropped forged session_id
  return result;
}
