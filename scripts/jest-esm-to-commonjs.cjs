'use strict';
/**
 * Jest transformer for the ES-module-only packages listed in jest.config.ts: TypeScript's own transpiler rewrites
 * their `import`/`export` to CommonJS, nothing else. Jest caches the output by file content and this file's hash.
 */
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const ts = require('typescript');

const SELF = createHash('sha256').update(readFileSync(__filename)).update(ts.version).digest('hex');

module.exports = {
  process(sourceText, sourcePath) {
    const output = ts.transpileModule(sourceText, {
      fileName: sourcePath,
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2023,
        allowJs: true,
        esModuleInterop: true,
        sourceMap: false,
      },
    });
    return { code: output.outputText };
  },
  getCacheKey(sourceText, sourcePath) {
    return createHash('sha256').update(SELF).update(sourcePath).update(sourceText).digest('hex');
  },
};
