import fc from 'fast-check';
import { describeExpected, describeReceived, exampleValue, issue, messages } from '@toolwright/core/pipeline/messages';
import type { ParamSchema } from '@toolwright/core/types/schema';
import type { ValidationIssue } from '@toolwright/core/types/execution';

/**
 * The issue builder and the invalid-arguments message assemble their text from precomputed parts (issue 12): the same
 * text as the plain template they replaced, including the rule that no example is appended when the sentence already
 * holds "Example:" or "e.g." (in the path, the expected text, the received value, or across the closing dot).
 */

/** The builders as they were before the precomputed parts (the reference). */
function referenceIssue(
  path: string,
  rule: string,
  schema: ParamSchema | undefined,
  received: unknown,
  detail?: string,
): ValidationIssue {
  const expected = schema ? describeExpected(schema) : 'nothing';
  const exampleText = schema ? (JSON.stringify(exampleValue(schema)) as string | undefined) : undefined;
  const clip = (text: string) => (text.length > 120 ? `${text.slice(0, 117)}...` : text);
  const exampleSuffix = exampleText !== undefined ? ` Example: ${clip(exampleText)}.` : undefined;
  const receivedText = describeReceived(received);
  const base =
    detail ?? `${path === '' ? 'The arguments' : `"${path}"`} must be ${expected}, but received ${receivedText}.`;
  const message =
    exampleSuffix !== undefined && !base.includes('Example:') && !base.includes('e.g.') ? base + exampleSuffix : base;
  return exampleText !== undefined
    ? { path, rule, expected, received: receivedText, example: exampleText, message }
    : { path, rule, expected, received: receivedText, message };
}

function referenceInvalidArguments(tool: string, issues: readonly ValidationIssue[]): string {
  const lines = issues.slice(0, 10).map((entry) => `- ${entry.message}`);
  if (issues.length > 10) lines.push(`- ... and ${issues.length - 10} more problems.`);
  return `The arguments for "${tool}" are invalid:\n${lines.join('\n')}\nFix these arguments and call "${tool}" again.`;
}

const fragment = fc.constantFrom('', 'e.g', 'e.g.', 'Example', 'Example:', '.', ':', 'e', 'g', '"', ' ', 'x', 'é');
const text = fc.array(fragment, { maxLength: 5 }).map((parts) => parts.join(''));

const schemas: ParamSchema[] = [
  { kind: 'string' },
  { kind: 'string', enum: ['e.g.', 'x'] },
  { kind: 'string', enum: ['Example:'] },
  { kind: 'string', enum: ['e.g'] },
  { kind: 'string', pattern: 'e.g.' },
  { kind: 'int', minimum: 5, maximum: 480 },
  { kind: 'bool', examples: ['e.g.'] },
  { kind: 'string', examples: [] },
  { kind: 'object', properties: [] },
  { kind: 'array', items: { kind: 'string', enum: ['e.g'] } },
] as unknown as ParamSchema[];

describe('issue messages from precomputed parts', () => {
  it('equal the plain template for random paths, received values and details (fixed seed)', () => {
    fc.assert(
      fc.property(
        text,
        fc.oneof(
          text,
          fc.integer(),
          fc.boolean(),
          fc.constant(null),
          fc.constant(undefined),
          fc.array(text),
          // An object is rendered with its keys, unquoted: the received text may end with "e.g".
          fc.dictionary(text, fc.constant(1), { maxKeys: 3 }),
        ),
        fc.nat(schemas.length),
        fc.option(text, { nil: undefined }),
        (path, received, schemaIndex, detail) => {
          const schema = schemas[schemaIndex];
          expect(issue(path, 'rule', schema, received, detail)).toEqual(
            referenceIssue(path, 'rule', schema, received, detail),
          );
        },
      ),
      { seed: 1_212_2026, numRuns: 20_000 },
    );
  });

  it('the invalid-arguments message equals the joined list for 0 to 13 issues', () => {
    for (let count = 0; count <= 13; count++) {
      const issues = Array.from({ length: count }, (_, index) => issue(`p${index}`, 'type', schemas[0], index));
      expect(messages.invalidArguments('tool', issues)).toBe(referenceInvalidArguments('tool', issues));
    }
  });
});
