import 'reflect-metadata';
import { PersonaToolExecutor, ToolRegistry } from '@toolwright/core';
import { connectMcpServers, serveMcp, type McpConnections, type McpServerHandle } from '@toolwright/mcp';
import { RecordingLogger } from '../../../core/test/support/recording-logger';

const OBJECT = { type: 'object' } as const;

/** Local tools are never shadowed or removed by a remote server; a connection touches only its own entries (issue 11). */
describe('remote tools never shadow or remove local tools, with the official SDK over HTTP', () => {
  let remoteRegistry: ToolRegistry;
  let server: McpServerHandle;
  let connections: McpConnections | undefined;

  beforeEach(async () => {
    remoteRegistry = new ToolRegistry({ logger: new RecordingLogger() });
    server = await serveMcp(remoteRegistry, { transport: 'http', logger: new RecordingLogger() });
  });

  afterEach(async () => {
    await connections?.close();
    connections = undefined;
    await server.close();
  });

  function localRegistry() {
    const logger = new RecordingLogger();
    const registry = new ToolRegistry({ logger });
    return { logger, registry, executor: new PersonaToolExecutor(registry, { logger }) };
  }

  function connect(registry: ToolRegistry, logger: RecordingLogger) {
    connections = connectMcpServers(registry, [{ name: 'remote', url: server.url!, namespace: false }], {
      logger,
      retry: { attempts: 1 },
    });
    return connections;
  }

  it("a remote tool named like a local tool's alias (or its name in another case) is not registered; the alias still runs the local tool", async () => {
    remoteRegistry.registerJsonSchemaTool({ name: 'weather', inputSchema: OBJECT }, () => 'remote weather');
    remoteRegistry.registerJsonSchemaTool({ name: 'GetWeather', inputSchema: OBJECT }, () => 'remote GetWeather');
    remoteRegistry.registerJsonSchemaTool({ name: 'news', inputSchema: OBJECT }, () => 'remote news');
    const { logger, registry, executor } = localRegistry();
    registry.registerJsonSchemaTool({ name: 'get_weather', inputSchema: OBJECT }, () => 'local weather', {
      aliases: ['weather'],
    });
    expect((await connect(registry, logger).ready).connected).toEqual(['remote']);
    expect(registry.list().map((tool) => tool.name)).toEqual(['get_weather', 'news']);
    const viaAlias = await executor.execute({ id: 's1', name: 'weather', arguments: {} });
    expect(viaAlias.ok && viaAlias.value).toBe('local weather');
    const viaCase = await executor.execute({ id: 's2', name: 'GetWeather', arguments: {} });
    expect(viaCase.ok && viaCase.value).toBe('local weather');
    expect(logger.messages('warn')).toEqual(
      expect.arrayContaining([
        `MCP server 'remote': tool "weather" was not registered: the name "weather" is the name or an alias of the tool "get_weather" (or differs from one only in case and separators), which was registered first; a remote tool never shadows another tool`,
        `MCP server 'remote': tool "GetWeather" was not registered: the name "GetWeather" is the name or an alias of the tool "get_weather" (or differs from one only in case and separators), which was registered first; a remote tool never shadows another tool`,
      ]),
    );
  });

  it('a local tool registered after a remote one keeps its name through a tools/list refresh and close()', async () => {
    remoteRegistry.registerJsonSchemaTool(
      { name: 'forecast', description: 'v1', inputSchema: OBJECT },
      () => 'remote forecast',
    );
    const { logger, registry, executor } = localRegistry();
    const live = connect(registry, logger);
    await live.ready;
    expect(registry.get('forecast')?.description).toBe('v1');
    // The app registers its own "forecast" (the registry's default: replace, with a warning).
    registry.registerJsonSchemaTool(
      { name: 'forecast', description: 'local', inputSchema: OBJECT },
      () => 'local forecast',
    );
    // The server changes its tool and says so: the refresh must not put the remote one back.
    remoteRegistry.unregister('forecast');
    remoteRegistry.registerJsonSchemaTool(
      { name: 'forecast', description: 'v2', inputSchema: OBJECT },
      () => 'remote forecast v2',
    );
    await logger.waitFor(/tools\/list|changed its tools|"forecast" was not registered/);
    await live.get('remote')!.refreshTools();
    expect(registry.get('forecast')?.description).toBe('local');
    const call = await executor.execute({ id: 's3', name: 'forecast', arguments: {} });
    expect(call.ok && call.value).toBe('local forecast');
    expect(live.status()[0]?.tools).toEqual([]);
    await live.close();
    expect(registry.get('forecast')?.description).toBe('local');
  });

  it("a local tool registered later with an alias of a remote tool's name takes it over; close() leaves the local tool alone", async () => {
    remoteRegistry.registerJsonSchemaTool({ name: 'lookup', inputSchema: OBJECT }, () => 'remote lookup');
    remoteRegistry.registerJsonSchemaTool({ name: 'other', inputSchema: OBJECT }, () => 'remote other');
    const { logger, registry, executor } = localRegistry();
    const live = connect(registry, logger);
    await live.ready;
    expect(registry.has('lookup')).toBe(true);
    registry.registerJsonSchemaTool({ name: 'find_record', inputSchema: OBJECT }, () => 'local find', {
      aliases: ['lookup'],
    });
    expect(registry.list().map((tool) => tool.name)).toEqual(['other', 'find_record']);
    const call = await executor.execute({ id: 's4', name: 'lookup', arguments: {} });
    expect(call.ok && call.value).toBe('local find');
    // A refresh does not bring it back.
    await live.get('remote')!.refreshTools();
    expect(registry.list().map((tool) => tool.name)).toEqual(['other', 'find_record']);
    await live.close();
    expect(registry.list().map((tool) => tool.name)).toEqual(['find_record']);
  });

  it('a remote tool removed by the server while a local tool holds its name: the local tool stays', async () => {
    remoteRegistry.registerJsonSchemaTool({ name: 'report', inputSchema: OBJECT }, () => 'remote report');
    const { logger, registry } = localRegistry();
    const live = connect(registry, logger);
    await live.ready;
    registry.registerJsonSchemaTool(
      { name: 'report', description: 'local', inputSchema: OBJECT },
      () => 'local report',
    );
    remoteRegistry.unregister('report');
    await live.get('remote')!.refreshTools();
    expect(registry.get('report')?.description).toBe('local');
  });
});
