// The snippet of docs/inspector.md ("Mounting it in an application"). CI type-checks this file (tsconfig.test.json)
// and packages/cli/test/functional/docs-snippet.spec.ts runs it and checks the page shows the same lines.
import { createServer, type Server } from 'node:http';
import { PersonaToolExecutor, type Logger, type ToolRegistry } from '@toolwright/core';
import { createInspector, InspectorEventLog } from '@toolwright/cli';

export function startAppWithInspector(registry: ToolRegistry, appLogger: Logger): { server: Server; inspectorPath: string; executor: PersonaToolExecutor } {
  // --- snippet start
  const events = new InspectorEventLog();
  const executor = new PersonaToolExecutor(registry, { logger: events.tap(appLogger) }); // the app's executor
  const inspector = createInspector({ registry, executor, events, allowRun: false });

  const server = createServer((request, response) => {
    if (request.url?.startsWith('/inspector/')) {
      request.url = request.url.slice('/inspector'.length); // Express does this for app.use('/inspector', inspector.handler)
      return inspector.handler(request, response);
    }
    // ... the application's own routes
    response.writeHead(404).end();
  });
  const inspectorPath = `/inspector/?token=${inspector.token}`;
  // --- snippet end
  return { server, inspectorPath, executor };
}
