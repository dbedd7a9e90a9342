#!/usr/bin/env node
'use strict';
/**
 * Our MCP client as the conformance suite's client under test: `conformance client --command "node this-file"`.
 * The suite appends the server URL and sets MCP_CONFORMANCE_SCENARIO. It uses the built packages (npm run build):
 * connectMcpServers registers the server's tools, and the scenario's tool is called through the PersonaToolExecutor.
 */
require('reflect-metadata');
const { PersonaToolExecutor, ToolRegistry } = require('@toolwright/core');
const { connectMcpServers, stderrLogger } = require('@toolwright/mcp');

/** What each scenario calls once connected (tools listed by the scenario's server). */
const CALLS = {
  tools_call: { name: 'add_numbers', arguments: { a: 5, b: 3 } },
  'sse-retry': { name: 'test_reconnection', arguments: {} },
  'elicitation-sep1034-client-defaults': { name: 'test_client_elicitation_defaults', arguments: {} },
};

async function main() {
  const url = process.argv[process.argv.length - 1];
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO || '';
  const registry = new ToolRegistry({ logger: stderrLogger });
  const executor = new PersonaToolExecutor(registry, { logger: stderrLogger });
  const connections = connectMcpServers(registry, [{ name: 'conformance', url }], {
    logger: stderrLogger,
    retry: { attempts: 1 },
    connectTimeoutMs: 10_000,
  });
  try {
    const report = await connections.ready;
    if (report.connected.length !== 1)
      throw new Error(
        `not connected: ${report.servers[0] && report.servers[0].error && report.servers[0].error.message}`,
      );
    const call = CALLS[scenario];
    if (call) {
      const result = await executor.execute({
        id: `${scenario}-1`,
        name: `conformance.${call.name}`,
        arguments: call.arguments,
      });
      process.stdout.write(`${JSON.stringify(result)}\n`);
      if (!result.ok) throw new Error(`${call.name} failed: ${result.error.code}: ${result.error.message}`);
    }
  } finally {
    await connections.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`conformance client: ${error.message}\n`);
    process.exit(1);
  },
);
