import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A fixture of test/fixtures (real payload shapes from provider-formats.md, wrapped as the APIs return them). */
export function loadFixture(name: string): Record<string, any> {
  return JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', `${name}.json`), 'utf8')) as Record<string, any>;
}
