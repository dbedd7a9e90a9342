#!/usr/bin/env node
// The repository's `preinstall`: on a Node older than the development tools need (the root package's `engines`), one
// line on stderr says so, and that the install goes on. npm's own engine warnings are not printed (.npmrc sets
// `loglevel=error`): on Node 20 they were 88 blocks of 5 lines, one per development dependency that declares
// Node >= 22 (the AI SDK, the OpenAI SDK, lerna's npm libraries, ...), which read as a failed install although it
// worked. The published packages themselves take Node ^20.19.0 || >=22.12.0 (their own `engines`).
import { readFileSync } from 'node:fs';

const required = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines.node;
const minimum = Number(/^>=\s*(\d+)/.exec(required)?.[1]);
const [major] = process.versions.node.split('.').map(Number);
if (Number.isInteger(minimum) && major < minimum)
  process.stderr.write(
    `toolwright: Node ${process.versions.node} runs this install; the repository's development tools need Node ${required} (npm's engine warnings, one per tool, are not shown). The install and the build go on and work; run the tests with Node ${minimum} or later (.ci/run installs it when the machine has an older one).\n`,
  );
