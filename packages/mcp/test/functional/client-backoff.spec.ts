import 'reflect-metadata';
import { PersonaToolExecutor, ToolRegistry } from '@toolwright/core';
import { connectMcpServers, McpConnectionError, type McpConnections } from '@toolwright/mcp';
import { FakeClock } from '../support/fake-clock';
import { RecordingLogger } from '../../../core/test/support/recording-logger';
import { alive, FAKE_SERVER, logFile, reportedPids, waitUntil } from '../support/processes';

/** Connection retry with backoff on a fake clock: no test here waits for a real 2 s or 4 s delay. */
describe('connection retry, backoff and degraded mode', () => {
  let opened: McpConnections[] = [];
  afterEach(async () => {
    await Promise.all(opened.map((connections) => connections.close()));
    opened = [];
  });

  function setup() {
    const logger = new RecordingLogger();
    const registry = new ToolRegistry({ logger });
    registry.registerJsonSchemaTool(
      {
        name: 'local_note',
        description: 'A local command.',
        parameters: { type: 'object', properties: { text: { type: 'string' } } },
      },
      (params: { text: string }) => `noted: ${params.text}`,
    );
    const executor = new PersonaToolExecutor(registry, { logger });
    return { logger, registry, executor, clock: new FakeClock() };
  }

  it('makes 3 attempts at 0 s, 2 s and 4 s, logs each with its number and delay, and degrades with the server stderr', async () => {
    const { logger, registry, clock } = setup();
    const connections = connectMcpServers(
      registry,
      [{ name: 'zwave', command: process.execPath, args: [FAKE_SERVER], env: { FAKE_MODES: 'exit-at-start:4' } }],
      { logger, clock },
    );
    opened.push(connections);
    let settled = false;
    void connections.ready.then(() => {
      settled = true;
    });

    await waitUntil(() => clock.waiting === 1, 30_000, 'the first failure');
    expect(clock.sleeps).toEqual([2_000]);
    expect(settled).toBe(false);
    expect(connections.get('zwave')!.status().state).toBe('connecting');
    clock.advance();
    await waitUntil(() => clock.waiting === 1 && clock.sleeps.length === 2, 30_000, 'the second failure');
    expect(clock.sleeps).toEqual([2_000, 4_000]);
    expect(settled).toBe(false);
    clock.advance();

    // No wall-clock bound (three process starts took 6.5 s on a loaded machine): every wait above went through the
    // fake clock, which is what the test waited on and advanced, so no real 2 s or 4 s sleep happened.
    const report = await connections.ready;
    expect(clock.sleeps).toEqual([2_000, 4_000]);
    expect(logger.messages('info').filter((message) => message.includes('connection attempt'))).toEqual([
      "MCP server 'zwave': connection attempt 1 of 3 in 0 ms",
      "MCP server 'zwave': connection attempt 2 of 3 in 2000 ms",
      "MCP server 'zwave': connection attempt 3 of 3 in 4000 ms",
    ]);
    expect(
      logger.entries
        .filter((entry) => entry.message.includes('connection attempt 2 of 3 in'))
        .map((entry) => entry.details),
    ).toEqual([{ server: 'zwave', attempt: 2, attempts: 3, delayMs: 2_000 }]);
    expect(logger.messages('warn').filter((message) => message.includes('failed:'))).toHaveLength(3);

    expect(report.degraded).toEqual(['zwave']);
    const error = report.servers[0]!.error!;
    expect(error).toBeInstanceOf(McpConnectionError);
    expect(error.message).toMatch(
      /^MCP connection to 'zwave' failed after 3 attempts \(last error: .+\); server stderr: fake-server: cannot open \/dev\/zwave0: permission denied$/,
    );
    expect(error).toMatchObject({
      code: 'MCP_CONNECTION_FAILED',
      server: 'zwave',
      attempts: 3,
      stderr: 'fake-server: cannot open /dev/zwave0: permission denied\n',
    });
    expect(logger.messages('error')).toEqual([error.message]);
    // The degraded-mode message, verbatim.
    expect(logger.messages('warn')).toContain(
      "MCP server 'zwave' is unavailable: degraded mode, the app continues without its tools (1 tool available)",
    );
    expect(registry.list().map((definition) => definition.name)).toEqual(['local_note']);
  }, 60_000);

  it('returns at once: local tools work while a server is still being retried', async () => {
    const { logger, registry, executor, clock } = setup();
    const connections = connectMcpServers(
      registry,
      [{ name: 'zwave', command: process.execPath, args: [FAKE_SERVER], env: { FAKE_MODES: 'exit-at-start:1' } }],
      { logger, clock },
    );
    opened.push(connections);
    expect(connections.get('zwave')!.status().state).toBe('connecting');
    await waitUntil(() => clock.waiting === 1, 30_000, 'the first failure');
    const local = await executor.execute({ id: 'l1', name: 'local_note', arguments: { text: 'hi' } });
    expect(local.ok && local.value).toBe('noted: hi');
    // Closing while waiting ends the retry at once.
    await connections.close();
    const report = await connections.ready;
    expect(report.servers[0]!.state).toBe('closed');
    expect(clock.sleeps).toEqual([2_000]);
  }, 60_000);

  it('uses the one policy object for every server, with any number of attempts and a cap', async () => {
    const { logger, registry, clock } = setup();
    const connections = connectMcpServers(
      registry,
      [
        { name: 'a', command: process.execPath, args: [FAKE_SERVER], env: { FAKE_MODES: 'exit-at-start:1' } },
        { name: 'b', command: process.execPath, args: [FAKE_SERVER], env: { FAKE_MODES: 'exit-at-start:1' } },
      ],
      { logger, clock, retry: { attempts: 4, initialDelayMs: 100, multiplier: 3, maxDelayMs: 500 } },
    );
    opened.push(connections);
    const drain = setInterval(() => {
      while (clock.waiting > 0) clock.advance();
    }, 5);
    try {
      const report = await connections.ready;
      expect(report.degraded).toEqual(['a', 'b']);
    } finally {
      clearInterval(drain);
    }
    expect([...clock.sleeps].sort((x, y) => x - y)).toEqual([100, 100, 300, 300, 500, 500]);
    expect(
      logger.messages('info').filter((message) => message.startsWith("MCP server 'a': connection attempt")),
    ).toEqual([
      "MCP server 'a': connection attempt 1 of 4 in 0 ms",
      "MCP server 'a': connection attempt 2 of 4 in 100 ms",
      "MCP server 'a': connection attempt 3 of 4 in 300 ms",
      "MCP server 'a': connection attempt 4 of 4 in 500 ms",
    ]);
  }, 60_000);

  it('a server that keeps dying is given up after maxRestarts reconnections within the window', async () => {
    const { logger, registry, executor, clock } = setup();
    const events = logFile('dies');
    const connections = connectMcpServers(
      registry,
      [
        {
          name: 'zwave',
          command: process.execPath,
          args: [FAKE_SERVER],
          env: { FAKE_MODES: 'die-on-call', FAKE_LOG: events },
        },
      ],
      {
        logger,
        clock,
        retry: { maxRestarts: 1, restartWindowMs: 60_000 },
      },
    );
    opened.push(connections);
    await connections.ready;
    const call = () => executor.execute({ id: 'c', name: 'zwave.ping_device', arguments: { deviceName: 'lamp' } });
    expect((await call()).ok).toBe(false);
    await waitUntil(
      () => connections.get('zwave')!.status().state === 'connected' && reportedPids(events).length === 2,
      30_000,
      'the first reconnection',
    );
    clock.tick(1_000);
    expect((await call()).ok).toBe(false);
    await waitUntil(() => connections.get('zwave')!.status().state === 'degraded', 30_000, 'degraded mode');
    expect(logger.messages('error')).toContain(
      "MCP server 'zwave' lost its connection 2 times within 60000 ms; not reconnecting",
    );
    expect(logger.messages('info').filter((message) => message.includes('connection attempt'))).toHaveLength(2);
    expect(registry.has('zwave.ping_device')).toBe(false);
    const after = await call();
    expect(!after.ok && after.error.code).toBe('UNKNOWN_TOOL');
    expect(alive(reportedPids(events))).toEqual([]);
  }, 60_000);
});
