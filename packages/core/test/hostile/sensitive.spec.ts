import 'reflect-metadata';
import { Command, PersonaToolExecutor, silentLogger, ToolParam, ToolRegistry } from '@toolwright/core';
import { RecordingLogger } from '../support/recording-logger';

const SECRET = 'sk-LIVE-SECRET';

class Credentials {
  @ToolParam({ description: 'User' }) user!: string;
  @ToolParam({ description: 'API key', sensitive: true, minLength: 40 }) apiKey!: string;
}
class ConnectParams {
  @ToolParam({ description: 'Service' }) service!: string;
  @ToolParam({ type: () => Credentials }) credentials!: Credentials;
  @ToolParam({ type: 'int', description: 'PIN', sensitive: true, required: false }) pin?: number;
}
@Command({ name: 'connect', description: 'Connect to a service', params: ConnectParams })
class ConnectCommand {
  execute(params: ConnectParams) {
    return { user: params.credentials.user };
  }
}

function make(validation: 'compiled' | 'reference') {
  const logger = new RecordingLogger();
  const executor = new PersonaToolExecutor(ToolRegistry.from([ConnectCommand], { logger: silentLogger }), {
    logger,
    validation,
  });
  return { logger, executor };
}

describe.each(['compiled', 'reference'] as const)(
  'sensitive values are never echoed nor logged (%s path)',
  (validation) => {
    it('a refused sensitive value is named, not repeated (top level)', async () => {
      const { executor, logger } = make(validation);
      const result = await executor.execute({
        id: 'c1',
        name: 'connect',
        arguments: { service: 's', credentials: { user: 'u', apiKey: 'x'.repeat(40) }, pin: SECRET },
      });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.message).toContain(
        '"pin" must be an integer, but received a value that is not repeated (the field is sensitive)',
      );
      expect(JSON.stringify(result)).not.toContain(SECRET);
      expect(JSON.stringify(logger.entries)).not.toContain(SECRET);
    });

    it('a nested sensitive value that arrived inside a JSON string: neither the message nor the logged json-string-to-object holds it', async () => {
      const { executor, logger } = make(validation);
      const credentials = JSON.stringify({ user: 'u', apiKey: SECRET });
      const result = await executor.execute({ id: 'c1', name: 'connect', arguments: { service: 's', credentials } });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.issues.map((issue) => issue.path)).toEqual(['credentials.apiKey']);
      expect(JSON.stringify(result.error)).not.toContain(SECRET);
      expect(JSON.stringify(logger.entries)).not.toContain(SECRET);
      const logged = logger.entries.find((entry) =>
        entry.message.startsWith('tool call connect refused: INVALID_ARGUMENTS ('),
      )!;
      expect(logged.message).toContain('credentials.apiKey: ');
      expect(logged.details!['issues']).toEqual([expect.objectContaining({ path: 'credentials.apiKey' }) as unknown]);
      expect(logged.details!['transformations']).toEqual([
        { path: 'credentials', rule: 'json-string-to-object', from: '[redacted]', to: '[redacted]' },
      ]);
    });

    it('a valid call with the secret inside a JSON string logs it redacted', async () => {
      const { executor, logger } = make(validation);
      const key = `${SECRET}-${'k'.repeat(40)}`;
      const result = await executor.execute({
        id: 'c1',
        name: 'connect',
        arguments: { service: 's', credentials: JSON.stringify({ user: 'u', apiKey: key }) },
      });
      expect(result).toMatchObject({ ok: true, value: { user: 'u' } });
      expect(JSON.stringify(logger.entries)).not.toContain(SECRET);
    });

    it('a parent refused as a whole (its JSON string is broken) does not echo the string', async () => {
      const { executor, logger } = make(validation);
      const result = await executor.execute({
        id: 'c1',
        name: 'connect',
        arguments: { service: 's', credentials: `{"user": "u", "apiKey": "${SECRET}"` },
      });
      expect(result.ok).toBe(false);
      expect(JSON.stringify(result)).not.toContain(SECRET);
      expect(JSON.stringify(logger.entries)).not.toContain(SECRET);
    });

    it('arguments text that cannot be read is not quoted back when the tool takes sensitive values', async () => {
      const { executor, logger } = make(validation);
      const result = await executor.execute({
        id: 'c1',
        name: 'connect',
        arguments: `Here you go: {"pin": "${SECRET}"} and also {"pin": 2}`,
      });
      expect(result.ok).toBe(false);
      expect(JSON.stringify(result)).not.toContain(SECRET);
      expect(JSON.stringify(logger.entries)).not.toContain(SECRET);
    });
  },
);
