#!/usr/bin/env node
// The `toolwright` binary. reflect-metadata first: the application's decorated commands need it when they load.
import 'reflect-metadata';
import { runCli } from './program';

// `toolwright tools | head`: a closed pipe ends the output, not with a crash.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

runCli(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`toolwright: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 2;
  },
);
