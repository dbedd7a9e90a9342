import 'reflect-metadata';
import {
  ArrayOf,
  Command,
  DefinitionError,
  FromContext,
  ToolParam,
  ToolRegistry,
  silentLogger,
} from '@toolwright/core';
import { buildJobData, contextForJob, restoreSensitive, SealingKeyMissingError } from '../../src/job-data';
import { jobIdForCall } from '../../src/job-ids';
import { jobOptionsFor } from '../../src/queued-tool-executor';
import { open, seal } from '../../src/sealing';

class Credential {
  @ToolParam() service!: string;
  @ToolParam({ sensitive: true }) token!: string;
}
class ConnectParams {
  @ToolParam() label!: string;
  @ToolParam({ sensitive: true }) password!: string;
  @ArrayOf(() => Credential) credentials!: Credential[];
  @FromContext('session_id') sessionId?: string;
}
@Command({
  name: 'connect',
  description: 'Connect',
  params: ConnectParams,
  queue: { attempts: 3, backoff: { type: 'fixed', delayMs: 250 }, priority: 5 },
})
class Connect {
  execute() {
    return 'ok';
  }
}

describe('job data', () => {
  const definition = new ToolRegistry({ logger: silentLogger }).register(Connect);
  const params = {
    label: 'db',
    password: 'p@ss',
    credentials: [
      { service: 'a', token: 't-1' },
      { service: 'b', token: 't-2' },
    ],
    sessionId: 's1',
  };
  const key = 'passphrase';

  it('leaves out context fields and seals every sensitive value at its exact path', () => {
    const data = buildJobData(
      definition,
      'c1',
      params,
      [{ path: '', rule: 'double-encoded-json', from: '"{...}"', to: {} }],
      { sessionId: 's1', jobId: 'forged-by-nobody' },
      key,
    );
    expect(data.params).toEqual({
      label: 'db',
      password: '[redacted]',
      credentials: [
        { service: 'a', token: '[redacted]' },
        { service: 'b', token: '[redacted]' },
      ],
    });
    expect(data.context).toEqual({ sessionId: 's1' });
    expect(JSON.stringify(data)).not.toMatch(/p@ss|t-1|t-2/);
    expect(data.transformations).toEqual([
      { path: '', rule: 'double-encoded-json', from: '[arguments text omitted]', to: '[arguments text omitted]' },
    ]);
    const secrets = JSON.parse(open(data.sealed!, key)) as Array<[Array<string | number>, unknown]>;
    expect(restoreSensitive(structuredClone(data.params), secrets)).toEqual({
      label: 'db',
      password: 'p@ss',
      credentials: [
        { service: 'a', token: 't-1' },
        { service: 'b', token: 't-2' },
      ],
    });
  });

  it('refuses to build job data with sensitive values and no key', () => {
    expect(() => buildJobData(definition, 'c1', params, [], {}, undefined)).toThrow(SealingKeyMissingError);
  });

  it('restores only where the job holds the redaction marker', () => {
    const target = { password: 'model-sent text', nested: { token: '[redacted]' } };
    restoreSensitive(target, [
      [['password'], 'secret'],
      [['nested', 'token'], 't'],
      [['__proto__', 'polluted'], true],
    ]);
    expect(target).toEqual({ password: 'model-sent text', nested: { token: 't' } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('gives the worker the job id as jobId, never a queued one', () => {
    const context = contextForJob(
      { sessionId: 's1', flowStepId: 'f1', now: '2026-11-23T10:00:00.000Z' },
      'job-9',
      undefined,
    );
    expect(context).toEqual({
      sessionId: 's1',
      flowStepId: 'f1',
      jobId: 'job-9',
      now: new Date('2026-11-23T10:00:00.000Z'),
    });
  });
});

describe('sealing', () => {
  it('round-trips, and fails on tampering or another key', () => {
    const sealed = seal('{"a":1}', 'k1');
    expect(open(sealed, 'k1')).toBe('{"a":1}');
    expect(() => open(sealed, 'k2')).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('{"a":2}').toString('base64url');
    expect(() => open(parts.join('.'), 'k1')).toThrow();
    expect(() => seal('x', new Uint8Array(16))).toThrow('32 bytes');
  });
});

describe('job ids', () => {
  it('uses the call id when BullMQ accepts it, else a stable hash', () => {
    expect(jobIdForCall('call_abc-1.2')).toBe('call_abc-1.2');
    expect(jobIdForCall('toolu:01')).toMatch(/^call-[0-9a-f]{40}$/);
    expect(jobIdForCall('toolu:01')).toBe(jobIdForCall('toolu:01'));
    expect(jobIdForCall('12345')).toMatch(/^call-/);
    expect(jobIdForCall('')).not.toBe(jobIdForCall(''));
  });
});

describe('per-tool queue options', () => {
  it('become BullMQ job options', () => {
    const definition = new ToolRegistry({ logger: silentLogger }).register(Connect);
    expect(jobOptionsFor(definition)).toEqual({ attempts: 3, backoff: { type: 'fixed', delay: 250 }, priority: 5 });
  });

  it.each([
    [{ attempts: 0 }],
    [{ attempts: 1.5 }],
    [{ priority: 0 }],
    [{ backoff: { type: 'linear', delayMs: 10 } }],
    [{ backoff: { type: 'fixed', delayMs: -1 } }],
    [{ retries: 3 }],
  ])('refuses %j at registration', (queue) => {
    class BadParams {
      @ToolParam() label!: string;
    }
    @Command({ name: 'bad', description: 'Bad', params: BadParams, queue: queue as never })
    class Bad {
      execute() {
        return 'ok';
      }
    }
    expect(() => new ToolRegistry({ logger: silentLogger }).register(Bad)).toThrow(DefinitionError);
  });
});
