import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { chromium, type Browser, type Page } from 'playwright-core';
import { PERSONA_APP, requireBuilt, startCli, stop } from '../support/run-cli';
import { saveScreenshot } from '../support/screenshots';

/**
 * The inspector in a real headless Chromium (the system's /usr/bin/chromium, driven by playwright-core), served by
 * the built `toolwright inspect` binary over examples/persona-app: the registry browser, the form generated for
 * get_calendar_events, the playground with a malformed call, the live statistics. Screenshots of each view go to
 * docs/images/ when they change.
 */
jest.setTimeout(180_000);

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const MALFORMED_OPENAI_CALL = JSON.stringify(
  {
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_abc123',
              type: 'function',
              function: {
                name: 'functions.get_calendar_events',
                arguments:
                  "```json\n{'resolved_datetimes': ['2026-11-23T09:00:00+01:00'], 'Max-Results': '5', 'include_declined': 'yes', 'job_id': 'job-from-model',}\n```",
              },
            },
          ],
        },
      },
    ],
  },
  null,
  2,
);

/** A GET with a chosen Host header (fetch does not let a caller set it). */
function statusWithHost(url: string, host: string): Promise<number | undefined> {
  return new Promise((resolveStatus, reject) => {
    const request = httpGet(url, { headers: { host } }, (response) => {
      response.resume();
      resolveStatus(response.statusCode);
    });
    request.on('error', reject);
  });
}

let inspector: { child: ChildProcess; url: string; stderr: () => string };
let browser: Browser;
let page: Page;

beforeAll(async () => {
  requireBuilt();
  if (!existsSync(CHROMIUM))
    throw new Error(
      `No Chromium at ${CHROMIUM}: install the chromium Debian package (.ci/run does), or set CHROMIUM_PATH.`,
    );
  inspector = await startCli(
    ['inspect', '--app', PERSONA_APP, '--allow-run', '--context', '{"timeZone": "Europe/Berlin", "model": "gpt-4.1"}'],
    60_000,
  );
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  page = await browser.newPage({
    viewport: { width: 1360, height: 900 },
    timezoneId: 'Europe/Berlin',
    locale: 'en-US',
  });
});

afterAll(async () => {
  await browser?.close();
  if (inspector) expect(await stop(inspector.child)).toBe(0);
});

describe('the inspector served by `toolwright inspect`', () => {
  it('binds 127.0.0.1 and refuses requests without the per-start token', async () => {
    const url = new URL(inspector.url);
    expect(url.hostname).toBe('127.0.0.1');
    const token = url.searchParams.get('token');
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const base = `${url.origin}/`;
    expect((await fetch(base)).status).toBe(401);
    expect((await fetch(`${base}?token=wrong-token-of-the-same-length-xx`)).status).toBe(401);
    expect((await fetch(`${base}api/registry`)).status).toBe(401);
    // The JSON API takes the token in a header only, never from the URL.
    expect((await fetch(`${base}api/registry?token=${token}`)).status).toBe(401);
    const registry = await fetch(`${base}api/registry`, { headers: { 'x-toolwright-token': token! } });
    expect(registry.status).toBe(200);
    // The page runs under a CSP without inline scripts or styles (the browser tests below run under it too).
    const page = await fetch(inspector.url);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(((await registry.json()) as { tools: unknown[] }).tools).toHaveLength(4);
    // A page from another origin cannot use a rebinding host name.
    expect(await statusWithHost(inspector.url, `attacker.example:${url.port}`)).toBe(403);
    expect(await statusWithHost(inspector.url, `localhost:${url.port}`)).toBe(200);
    // Running a handler needs the page's confirmation.
    const unconfirmed = await fetch(`${base}api/call`, {
      method: 'POST',
      headers: { 'x-toolwright-token': token!, 'content-type': 'application/json' },
      body: JSON.stringify({
        tool: 'get_calendar_events',
        arguments: { resolved_datetimes: ['2026-11-23T09:00:00+01:00'] },
        run: true,
      }),
    });
    expect(unconfirmed.status).toBe(400);
  });

  it('the registry browser: every tool, its parameters, lint findings beside it and each provider’s exact definition', async () => {
    await page.goto(inspector.url);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.locator('.tool-list button').allTextContents()).toEqual([
      expect.stringContaining('decision/propose'),
      expect.stringContaining('get_calendar_events'),
      expect.stringContaining('publish_article'),
      expect.stringContaining('resolve_relative_date'),
    ]);
    // Its name is not OpenAI's pattern, and the name codec encodes it: an info finding, so the list says lint ok.
    await expect(page.locator('.tool-list [data-tool="decision/propose"]').textContent()).resolves.toContain('lint ok');
    await page.click('[data-tool="decision/propose"]');
    // The array of option objects shows its items' fields, nested under it.
    expect(
      await page
        .locator('.parameters tbody tr')
        .evaluateAll((rows) => rows.map((row) => [row.getAttribute('data-path'), row.getAttribute('data-depth')])),
    ).toEqual([
      ['question', '0'],
      ['options', '0'],
      ['options[].label', '1'],
      ['options[].description', '1'],
      ['options[].proposedBy', '1'],
      ['deadline', '0'],
    ]);
    await expect(
      page.locator('.finding[data-severity="info"]', { hasText: 'openai · name-pattern' }).count(),
    ).resolves.toBe(1);
    await page.click('[data-subtab="definitions"]');
    await page.click('[data-provider="anthropic"]');
    const definition = JSON.parse((await page.locator('pre.definition').textContent()) ?? '') as {
      name: string;
      input_schema: { properties: Record<string, unknown> };
    };
    expect(definition.name).toBe('decision_propose');
    expect(Object.keys(definition.input_schema.properties)).toEqual(['question', 'options', 'deadline']);
    await saveScreenshot(page, 'inspector-definitions');
    await page.click('[data-subtab="overview"]');
    await saveScreenshot(page, 'inspector-registry');
  });

  it('the form generated for get_calendar_events: date-time pickers in an array, a number, a boolean, the context field as context; prepare, then run after confirming', async () => {
    await page.click('[data-tool="get_calendar_events"]');
    await page.click('[data-subtab="form"]');
    const form = page.locator('form.tool-form[data-tool="get_calendar_events"]');
    // The context field (job_id) is not an input of the model's arguments: it is in the trusted context block.
    await expect(form.locator('.fields [data-field="jobId"]').count()).resolves.toBe(0);
    await expect(form.locator('fieldset.context [data-context-field="jobId"]').count()).resolves.toBe(1);
    await form.locator('input[name="resolved_datetimes[0]"]').fill('2026-11-23T09:00');
    await form.locator('input[name="resolved_datetimes[0]#offset"]').fill('+01:00');
    await form.locator('.add-item').click();
    await form.locator('input[name="resolved_datetimes[1]"]').fill('2026-11-24T14:30');
    await form.locator('input[name="resolved_datetimes[1]#offset"]').fill('+01:00');
    await form.locator('input[name="max_results"]').fill('5');
    await form.locator('select[name="include_declined"]').selectOption('true');
    await form.locator('input[name="context.jobId"]').fill('job-7');
    await form.locator('[data-action="prepare"]').click();
    await page.waitForSelector('.report[data-ok="true"]');
    const params = JSON.parse((await page.locator('.report pre.params').textContent()) ?? '');
    expect(params).toEqual({
      resolved_datetimes: ['2026-11-23T09:00:00+01:00', '2026-11-24T14:30:00+01:00'],
      max_results: 5,
      include_declined: true,
      jobId: 'job-7',
    });

    // Run asks first; cancelling calls nothing.
    await form.locator('[data-action="run"]').click();
    await expect(page.locator('#confirm-run').isVisible()).resolves.toBe(true);
    await page.click('#confirm-run button[value="cancel"]');
    await expect(page.locator('.report .outcome').textContent()).resolves.toContain('Valid: the handler would receive');
    await form.locator('[data-action="run"]').click();
    await page.click('#confirm-run-button');
    await page.waitForSelector('.report pre.value');
    const value = JSON.parse((await page.locator('.report pre.value').textContent()) ?? '');
    expect(value).toEqual([
      { title: 'Event 1', start: '2026-11-23T09:00:00+01:00' },
      { title: 'Event 2', start: '2026-11-24T14:30:00+01:00' },
    ]);
    await saveScreenshot(page, 'inspector-form');
  });

  it('the playground: a malformed OpenAI call, each transformation highlighted in the original text, the parameters, then the handler result', async () => {
    await page.click('[data-view="playground"]');
    await page.fill('#playground-input', MALFORMED_OPENAI_CALL);
    await page.click('#playground-prepare');
    await page.waitForSelector('#playground-result .report');
    await expect(page.locator('#playground-result [data-shape]').getAttribute('data-shape')).resolves.toBe('openai');
    const rules = await page
      .locator('#playground-result ol.transformations li')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-rule')));
    expect(rules).toEqual([
      'tool-name-prefix',
      'fenced-block',
      'single-quotes',
      'trailing-commas',
      'key-case',
      'string-to-integer',
      'string-to-boolean',
      'dropped-context-field',
    ]);
    const marks = await page
      .locator('#playground-result pre.original mark')
      .evaluateAll((items) => items.map((item) => [item.getAttribute('data-rule'), item.firstChild?.textContent]));
    expect(marks).toEqual(
      expect.arrayContaining([
        ['key-case', "'Max-Results'"],
        ['string-to-integer', "'5'"],
        ['string-to-boolean', "'yes'"],
        ['dropped-context-field', "'job_id'"],
      ]),
    );
    const params = JSON.parse((await page.locator('#playground-result pre.params').textContent()) ?? '');
    expect(params).toEqual({
      resolved_datetimes: ['2026-11-23T09:00:00+01:00'],
      max_results: 5,
      include_declined: true,
    });
    await page.locator('#playground-input').evaluate((element) => {
      (element as { scrollTop: number }).scrollTop = 0;
    });
    await saveScreenshot(page, 'inspector-playground');

    await page.click('#playground-run');
    await page.click('#confirm-run-button');
    await page.waitForSelector('#playground-result pre.value');
    const message = JSON.parse((await page.locator('#playground-result pre.provider-message').textContent()) ?? '');
    expect(message).toEqual({
      role: 'tool',
      tool_call_id: 'call_abc123',
      content: JSON.stringify([{ title: 'Event 1', start: '2026-11-23T09:00:00+01:00' }]),
    });
  });

  it('the playground: a truncated call gets the exact message the model would get', async () => {
    await page.click('[data-view="playground"]');
    await page.selectOption('#playground-shape', 'arguments');
    await page.selectOption('#playground-tool', 'get_calendar_events');
    await page.fill('#playground-input', '{"resolved_datetimes": ["2026-11-23T09:00:00+01:00", "2026-11-2');
    await page.click('#playground-prepare');
    await page.waitForSelector('#playground-result .report[data-ok="false"]');
    await expect(page.locator('#playground-result .outcome').textContent()).resolves.toContain('MALFORMED_ARGUMENTS');
    await expect(page.locator('#playground-result pre.model-message').textContent()).resolves.toMatch(
      /cut off|truncated|incomplete/i,
    );
  });

  it('the statistics: transformations per tool, rule and model, and the security event, live', async () => {
    await page.click('[data-view="stats"]');
    // Five calls were made above (form: prepare and run; playground: prepare, run, and the truncated one).
    // (The page's CSP has no 'unsafe-eval', so the wait is a locator, not a waitForFunction string.)
    await page.locator('#metric-calls').filter({ hasText: /^5$/ }).waitFor();
    await expect(page.locator('#metric-security').textContent()).resolves.toBe('2');
    const rows = (await page.locator('#stats-table tbody tr').allInnerTexts()).map((row) =>
      row
        .split('\t')
        .slice(0, 4)
        .map((cell) => cell.trim()),
    );
    expect(rows).toContainEqual(['2', 'get_calendar_events', 'dropped-context-field', 'gpt-4.1']);
    expect(rows).toContainEqual(['2', 'get_calendar_events', 'key-case', 'gpt-4.1']);
    await expect(page.locator('#security-table').textContent()).resolves.toContain(
      'the model tried to set trusted context field "job_id" of get_calendar_events',
    );
    await expect(page.locator('#live-status').textContent()).resolves.toContain('live');
    await saveScreenshot(page, 'inspector-statistics');
  });
  it('forms for nested objects in arrays and for enums: decision/propose and publish_article', async () => {
    await page.click('[data-view="tools"]');
    await page.click('[data-tool="decision/propose"]');
    await page.click('[data-subtab="form"]');
    const form = page.locator('form.tool-form[data-tool="decision/propose"]');
    // minItems 2: two option objects to start with, each a fieldset of its own properties.
    await expect(form.locator('fieldset[data-path^="options["]').count()).resolves.toBe(2);
    await form.locator('input[name="question"]').fill('Which plan do we ship?');
    await form.locator('input[name="options[0].label"]').fill('Cheap');
    await form.locator('input[name="options[0].description"]').fill('Low-cost plan');
    await form.locator('input[name="options[0].proposedBy"]').fill('Ana');
    await form.locator('input[name="options[1].label"]').fill('Fast');
    await form.locator('input[name="options[1].description"]').fill('Ship this week');
    await form.locator('input[name="deadline"]').fill('2026-11-30T17:00');
    await form.locator('input[name="deadline#offset"]').fill('+01:00');
    await form.locator('input[name="context.sessionId"]').fill('session-42');
    await form.locator('[data-action="prepare"]').click();
    await page.waitForSelector('.report[data-ok="true"] pre.params');
    expect(JSON.parse((await page.locator('.report pre.params').textContent()) ?? '')).toEqual({
      question: 'Which plan do we ship?',
      options: [
        { label: 'Cheap', description: 'Low-cost plan', proposedBy: 'Ana' },
        { label: 'Fast', description: 'Ship this week' },
      ],
      deadline: '2026-11-30T17:00:00+01:00',
      sessionId: 'session-42',
    });

    await page.click('[data-tool="publish_article"]');
    const publish = page.locator('form.tool-form[data-tool="publish_article"]');
    expect(await publish.locator('select[name="channel"] option').allTextContents()).toEqual([
      '(not set)',
      '"blog"',
      '"newsletter"',
      '"intranet"',
    ]);
    await publish.locator('select[name="channel"]').selectOption({ label: '"newsletter"' });
    await publish.locator('textarea[name="context"]').fill(
      JSON.stringify({
        sessionId: 'session-42',
        persona: { permissions: ['publish'] },
        dataPackets: [{ content: { title: 'Quarterly results', body: 'Revenue grew.' } }],
      }),
    );
    await publish.locator('[data-action="prepare"]').click();
    await page.waitForSelector('.report[data-ok="true"] pre.params');
    expect(JSON.parse((await page.locator('.report pre.params').textContent()) ?? '')).toEqual({
      title: 'Quarterly results',
      content: 'Revenue grew.',
      channel: 'newsletter',
      sessionId: 'session-42',
    });
  });
});

describe('the inspector over a registry that is not the demo (test/fixtures/orders-app.mjs)', () => {
  let orders: { child: ChildProcess; url: string; stderr: () => string };
  let ordersPage: Page;

  beforeAll(async () => {
    orders = await startCli(['inspect', '--app', 'packages/cli/test/fixtures/orders-app.mjs'], 60_000);
    ordersPage = await browser.newPage({ viewport: { width: 1360, height: 900 }, locale: 'en-US' });
  });

  afterAll(async () => {
    await ordersPage?.close();
    if (orders) expect(await stop(orders.child)).toBe(0);
  });

  it('the Parameters table: the fields of an array of objects, formats and constraints', async () => {
    await ordersPage.goto(orders.url);
    await ordersPage.waitForSelector('body[data-ready="true"]');
    const rows = await ordersPage.locator('.parameters tbody tr').evaluateAll((items) =>
      items.map((row) => ({
        path: row.getAttribute('data-path'),
        type: row.querySelector('td.type')?.textContent,
        constraints: row.querySelector('td.constraints')?.textContent,
      })),
    );
    expect(rows).toEqual([
      { path: 'customerEmail', type: 'string (email)', constraints: '' },
      { path: 'lineItems', type: 'array<object>', constraints: 'at least 1 item, at most 20 items' },
      { path: 'lineItems[].sku', type: 'string', constraints: 'max length 20' },
      { path: 'lineItems[].quantity', type: 'integer', constraints: '≥ 1, ≤ 99' },
      { path: 'lineItems[].giftNote', type: 'string', constraints: 'max length 200' },
      { path: 'priority', type: 'enum "low" | "normal" | "high"', constraints: '' },
      { path: 'deliver_after', type: 'date-time (ISO 8601, with offset)', constraints: '' },
      { path: 'express', type: 'boolean', constraints: '' },
    ]);
    await expect(
      ordersPage
        .locator('.parameters tr[data-path="lineItems[].sku"] td.name')
        .evaluate(
          (cell) =>
            (globalThis as unknown as { getComputedStyle(element: unknown): { paddingLeft: string } }).getComputedStyle(
              cell,
            ).paddingLeft,
        ),
    ).resolves.toBe('26px');
  });

  it("the playground's examples are the selected tool's own: a valid call, malformed variants that are repaired, the call cut off", async () => {
    await ordersPage.click('[data-view="playground"]');
    const buttons = ordersPage.locator('#playground-examples button');
    expect(
      await buttons.evaluateAll((items) => items.map((item) => [item.textContent, item.getAttribute('data-outcome')])),
    ).toEqual([
      ['Valid call (OpenAI)', 'valid'],
      ['Malformed variant (OpenAI): fenced Python literals, other key spellings, values as strings', 'repaired'],
      ['Malformed variant (Anthropic tool_use)', 'repaired'],
      ['Cut off (bare arguments)', 'refused'],
    ]);

    await buttons.nth(0).click();
    expect(await ordersPage.inputValue('#playground-input')).toContain('create_order');
    await ordersPage.click('#playground-prepare');
    await ordersPage.waitForSelector('#playground-result .report[data-ok="true"]');
    const validParams = JSON.parse((await ordersPage.locator('#playground-result pre.params').textContent()) ?? '');
    await expect(ordersPage.locator('#playground-result ol.transformations li').count()).resolves.toBe(0);
    expect(validParams).toMatchObject({ customerEmail: 'name@example.com', lineItems: [{ sku: 'text', quantity: 1 }] });

    await buttons.nth(1).click();
    await ordersPage.click('#playground-prepare');
    await ordersPage.waitForSelector('#playground-result .report[data-ok="true"] pre.params');
    const rules = await ordersPage
      .locator('#playground-result ol.transformations li')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-rule')));
    expect(rules).toEqual(
      expect.arrayContaining(['tool-name-prefix', 'fenced-block', 'single-quotes', 'trailing-commas', 'key-case']),
    );
    // The repaired call is the valid one: nothing invented, nothing lost.
    expect(JSON.parse((await ordersPage.locator('#playground-result pre.params').textContent()) ?? '')).toEqual(
      validParams,
    );

    await buttons.nth(3).click();
    await expect(ordersPage.locator('#playground-shape').inputValue()).resolves.toBe('arguments');
    await ordersPage.click('#playground-prepare');
    await ordersPage.waitForSelector('#playground-result .report[data-ok="false"]');
    await expect(ordersPage.locator('#playground-result .outcome').textContent()).resolves.toContain(
      'MALFORMED_ARGUMENTS',
    );
  });
});
