import { Module } from '@nestjs/common';
import { ToolwrightModule } from '@toolwright/nestjs';
import { ToolwrightMcpClientModule } from '@toolwright/nestjs/mcp';

@Module({
  imports: [
    ToolwrightModule.forRoot(),
    ToolwrightMcpClientModule.forRoot({
      servers: [
        { name: 'notes', url: 'https://notes.example.com/mcp' },
        { name: 'files', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv/files'] },
      ],
      waitForServers: false, // connect in the background; app.get(ToolwrightMcpClients).connections has the status
    }),
  ],
})
export class AppWithRemoteToolsModule {}
