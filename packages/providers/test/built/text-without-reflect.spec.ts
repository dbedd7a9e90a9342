import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * `parseTextToolCalls` uses no decorator, so the first example of docs/text-tool-calls.md runs as written: a fresh
 * Node process that never imports `reflect-metadata` loads the built `@toolwright/providers/text` and reads a call.
 * Runs against the build output (`npm run build`), as a user's process would.
 */
const ROOT = join(__dirname, '..', '..', '..', '..');

it('parses text in a fresh process that never imports reflect-metadata', () => {
  const script = `
    const before = typeof Reflect.getMetadata;
    const { parseTextToolCalls } = require('@toolwright/providers/text');
    const tools = [{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } } }];
    const result = parseTextToolCalls('<think>The user wants Paris.</think>Let me check.\\n[get_weather(city="Paris", days=3)]', { tools });
    process.stdout.write(JSON.stringify({ before, result }));
  `;
  const run = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(JSON.parse(run.stdout)).toEqual({
    before: 'undefined',
    result: {
      calls: [{ name: 'get_weather', arguments: { city: 'Paris', days: 3 }, dialect: 'pythonic' }],
      rejected: [],
      content: 'Let me check.',
    },
  });
});
