#!/usr/bin/env node
// The `toolwright` binary as npm links it. This file is committed, so `npm install` in the repository links it before
// the build has written dist/ (npm links a workspace's bins before its `prepare` script runs); it loads the built CLI.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const built = join(__dirname, '..', 'dist', 'bin.js');
if (!existsSync(built)) {
  process.stderr.write(
    `toolwright: ${built} is missing: the CLI is not built. In the toolwright repository run \`npm run build\`.\n`,
  );
  process.exit(2);
}
require(built);
