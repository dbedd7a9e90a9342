#!/usr/bin/env node
'use strict';
/**
 * Our MCP client as the conformance suite's client under test: `conformance client --command "node this-file"`.
 * The suite appends the server URL and sets MCP_CONFORMANCE_SCENARIO (and MCP_CONFORMANCE_CONTEXT with credentials
 * for the pre-registered-client scenarios). It uses the built packages (npm run build): connectMcpServers registers
 * the server's tools (behind OAuth for the auth/* scenarios), and the scenario's tool is called through the
 * PersonaToolExecutor.
 */
require('reflect-metadata');
const { PersonaToolExecutor, ToolRegistry } = require('@toolwright/core');
const { connectMcpServers, stderrLogger } = require('@toolwright/mcp');
const { createPrivateKeyJwtAuth } = require('@modelcontextprotocol/client');

/** What each scenario calls once connected (tools listed by the scenario's server); auth/* scenarios call test-tool. */
const CALLS = {
  tools_call: { name: 'add_numbers', arguments: { a: 5, b: 3 } },
  'sse-retry': { name: 'test_reconnection', arguments: {} },
  'elicitation-sep1034-client-defaults': { name: 'test_client_elicitation_defaults', arguments: {} },
};
const AUTH_CALL = { name: 'test-tool', arguments: {} };
/** The suite's fixed client ID metadata document URL (its authorization servers accept it without fetching it). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
const REDIRECT_URL = 'http://127.0.0.1:3000/callback';

/**
 * The redirect step of the suite's authorization servers: their authorization endpoint approves at once and
 * redirects with a code, so following the URL without a browser is what a user's consent would produce.
 */
async function authorize({ authorizationUrl }) {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (location === null) throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
  return location;
}

/** The OAuth options for a scenario: pre-registered client credentials where the suite gives them, else a user flow. */
function authOptions(scenario) {
  if (!scenario.startsWith('auth/')) return undefined;
  const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
  const clientMetadata = { client_name: 'toolwright-conformance', redirect_uris: [REDIRECT_URL] };
  if (context.client_id !== undefined && context.private_key_pem !== undefined) {
    return {
      grantType: 'client_credentials',
      clientMetadata: { ...clientMetadata, redirect_uris: [], token_endpoint_auth_method: 'private_key_jwt' },
      clientInformation: { client_id: context.client_id },
      addClientAuthentication: createPrivateKeyJwtAuth({
        issuer: context.client_id,
        subject: context.client_id,
        privateKey: context.private_key_pem,
        alg: context.signing_algorithm || 'ES256',
      }),
    };
  }
  if (context.client_id !== undefined && context.client_secret !== undefined) {
    return {
      grantType: 'client_credentials',
      clientMetadata: { ...clientMetadata, redirect_uris: [] },
      clientInformation: { client_id: context.client_id, client_secret: context.client_secret },
    };
  }
  return { clientMetadata, clientMetadataUrl: CLIENT_METADATA_URL, authorize };
}

async function main() {
  const url = process.argv[process.argv.length - 1];
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO || '';
  const registry = new ToolRegistry({ logger: stderrLogger });
  const executor = new PersonaToolExecutor(registry, { logger: stderrLogger });
  const auth = authOptions(scenario);
  const connections = connectMcpServers(registry, [{ name: 'conformance', url }], {
    logger: stderrLogger,
    retry: { attempts: 1 },
    connectTimeoutMs: 10_000,
    ...(auth ? { auth } : {}),
    // The app's answer to every question: accept, leaving each field to its schema default.
    onElicitation: () => ({ action: 'accept', content: {} }),
  });
  try {
    const report = await connections.ready;
    if (report.connected.length !== 1)
      throw new Error(
        `not connected: ${report.servers[0] && report.servers[0].error && report.servers[0].error.message}`,
      );
    const call = CALLS[scenario] || (auth ? AUTH_CALL : undefined);
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
