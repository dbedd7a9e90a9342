import 'reflect-metadata';
import { Command, PersonaToolExecutor, silentLogger, ToolParam, ToolRegistry, type ToolCall } from '@toolwright/core';
import { RecordingLogger } from '../support/recording-logger';

/**
 * Issue 28, failure 6: a `ToolResult`'s `transformations` held sensitive values in clear (a `fenced-block` or
 * `json-string-to-object` entry of a call that carried an API key). Every kind of transformation that can carry a value
 * is produced here through the real executor, on a success and on a refusal: the secret is in neither the result nor
 * the log, and the rule is still reported.
 */

const SECRET = 'sk-LIVE-9f8e7d6c5b4a';
const SECRET_DIGITS = 4111111111111111;

class Auth {
  @ToolParam({ description: 'Account' }) account!: string;
  @ToolParam({ description: 'Bearer token', sensitive: true }) token!: string;
}
class PayParams {
  @ToolParam({ description: 'Amount in cents', type: 'int' }) amount!: number;
  @ToolParam({ description: 'API key', sensitive: true }) apiKey!: string;
  @ToolParam({ type: () => Auth, required: false }) auth?: Auth;
}
@Command({ name: 'pay', description: 'Pay an amount', params: PayParams, coercion: 'lenient' })
class PayCommand {
  execute(params: PayParams) {
    return { paid: params.amount };
  }
}

const plain = { amount: 250, apiKey: SECRET };
const refused = { amount: 'lots', apiKey: SECRET };
const text = JSON.stringify(plain);

/** [rule expected in `transformations`, arguments that produce it, whether the call is valid]. */
const CASES: ReadonlyArray<readonly [string, ToolCall['arguments'], boolean]> = [
  ['fenced-block', `\`\`\`json\n${text}\n\`\`\``, true],
  ['fenced-block', `\`\`\`json\n${JSON.stringify(refused)}\n\`\`\``, false],
  ['double-encoded-json', JSON.stringify(text), true],
  ['python-literals', `{'amount': 250, 'apiKey': '${SECRET}', 'auth': None}`, true],
  ['trailing-commas', `{"amount": 250, "apiKey": "${SECRET}",}`, true],
  ['tool-call-block', `<tool_call>{"name": "pay", "arguments": ${text}}</tool_call>`, true],
  ['unwrapped-call', { name: 'pay', arguments: plain }, true],
  ['repeated-object', `${text}\n${text}`, true],
  ['object-in-prose', `Here are the arguments: ${text} as asked.`, true],
  ['number-to-string', { amount: 250, apiKey: SECRET_DIGITS }, true],
  ['json-string-to-object', { ...plain, auth: JSON.stringify({ account: 'a', token: SECRET }) }, true],
  ['json-string-to-object', { ...refused, auth: JSON.stringify({ account: 'a', token: SECRET }) }, false],
  ['key-case', { amount: 250, api_key: SECRET }, true],
];

describe('sensitive values never appear in a ToolResult’s transformations (issue 28, failure 6)', () => {
  it.each(CASES)('%s (valid call: %s)', async (rule, args, valid) => {
    const logger = new RecordingLogger();
    const executor = new PersonaToolExecutor(ToolRegistry.from([PayCommand], { logger: silentLogger }), { logger });
    const result = await executor.execute({ id: 'c1', name: 'pay', arguments: args });
    expect(result.ok).toBe(valid);
    expect(result.transformations.map((transformation) => transformation.rule)).toContain(rule);
    for (const transformation of result.transformations.filter((entry) => entry.rule === rule)) {
      expect(transformation).toMatchObject({ from: '[redacted]', to: '[redacted]' });
    }
    const everything = JSON.stringify({ result, log: logger.entries });
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain(String(SECRET_DIGITS));
  });

  it('keeps transformations of other fields and tool-name repairs as they were', async () => {
    const executor = new PersonaToolExecutor(ToolRegistry.from([PayCommand], { logger: silentLogger }), {
      logger: silentLogger,
    });
    const result = await executor.execute({ id: 'c1', name: 'PAY', arguments: { amount: '250', apiKey: SECRET } });
    expect(result.ok).toBe(true);
    expect(result.transformations).toEqual([
      { path: '', rule: 'tool-name-case', from: 'PAY', to: 'pay' },
      { path: 'amount', rule: 'string-to-integer', from: '250', to: 250 },
    ]);
  });

  it('a tool without sensitive fields keeps every value of its transformations', async () => {
    class NoteParams {
      @ToolParam({ description: 'Text' }) text!: string;
    }
    @Command({ name: 'note', description: 'Take a note', params: NoteParams })
    class NoteCommand {
      execute(params: NoteParams) {
        return params.text;
      }
    }
    const executor = new PersonaToolExecutor(ToolRegistry.from([NoteCommand], { logger: silentLogger }), {
      logger: silentLogger,
    });
    const result = await executor.execute({ id: 'c1', name: 'note', arguments: '```json\n{"text": "hi"}\n```' });
    expect(result.transformations).toEqual([
      { path: '', rule: 'fenced-block', from: '```json\n{"text": "hi"}\n```', to: '{"text": "hi"}' },
    ]);
  });
});
