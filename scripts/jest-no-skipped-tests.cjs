// A jest reporter that fails the run when any test was skipped or left as a todo (`it.skip`, `it.todo`, `xit`, a
// `.only` that skips its neighbours, a test that marks itself skipped): every suite runs its real components, so a
// skipped test is a test that did not run. A run filtered by name (`jest -t <pattern>`) skips the rest on purpose and
// is not checked. Jest fails the run when a reporter's getLastError() returns an error.
'use strict';

class NoSkippedTestsReporter {
  constructor(globalConfig) {
    this.filteredByName = Boolean(globalConfig.testNamePattern);
    this.error = undefined;
  }

  onRunComplete(_contexts, results) {
    if (this.filteredByName) return;
    const skipped = [];
    for (const file of results.testResults) {
      for (const test of file.testResults) {
        if (test.status === 'pending' || test.status === 'skipped' || test.status === 'todo')
          skipped.push(`${file.testFilePath}: ${test.fullName} (${test.status})`);
      }
    }
    if (skipped.length === 0) return;
    this.error = new Error(`${skipped.length} test(s) did not run:\n${skipped.map((line) => `  ${line}`).join('\n')}`);
    process.stderr.write(`\nno-skipped-tests: ${this.error.message}\n`);
  }

  getLastError() {
    return this.error;
  }
}

module.exports = NoSkippedTestsReporter;
