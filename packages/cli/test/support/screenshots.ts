import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from './run-cli';

export const IMAGES = join(ROOT, 'docs', 'images');

type Styled = { style: Record<string, string> };

/** Sets one inline style property on every match (through the CSSOM, which the page's CSP allows; a <style> tag it would refuse). */
async function setStyle(page: Page, selector: string, property: string, value: string): Promise<void> {
  await page.locator(selector).evaluateAll(
    (elements, [name, setting]) => {
      for (const element of elements) (element as unknown as Styled).style[name as string] = setting as string;
    },
    [property, value],
  );
}

/**
 * Saves a full-page screenshot to docs/images/<name>.png when it differs from the file there (the docs show these;
 * CI keeps them as artifacts). What changes from run to run (times, durations) is hidden first, and the sticky parts
 * are unstuck (a full-page capture scrolls). Returns whether the file was written.
 */
export async function saveScreenshot(page: Page, name: string): Promise<boolean> {
  await setStyle(page, '.volatile, .duration', 'visibility', 'hidden');
  await setStyle(page, '.top, .tool-list', 'position', 'static');
  let image: Buffer;
  try {
    image = await page.screenshot({ fullPage: true, animations: 'disabled', caret: 'hide' });
  } finally {
    await setStyle(page, '.volatile, .duration', 'visibility', '');
    await setStyle(page, '.top, .tool-list', 'position', '');
  }
  const file = join(IMAGES, `${name}.png`);
  if (existsSync(file) && readFileSync(file).equals(image)) return false;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, image);
  return true;
}
