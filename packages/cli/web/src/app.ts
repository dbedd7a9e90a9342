/**
 * The inspector page. Plain DOM code, no framework: everything shown comes from the inspector's JSON API, which runs
 * the application's own registry, provider adapters and executor. Text from the registry (descriptions, names, a
 * remote MCP server's schemas) is only ever set as text, never as HTML.
 */

interface InspectorConfig {
  readonly token: string;
  readonly allowRun: boolean;
}

interface LintFinding {
  readonly tool: string;
  readonly provider: string;
  readonly rule: string;
  readonly message: string;
  readonly fix: string;
  readonly severity: 'error' | 'warning' | 'info';
}

interface SchemaNode {
  readonly kind: 'string' | 'int' | 'float' | 'bool' | 'date' | 'datetime' | 'array' | 'object' | 'union' | 'any';
  readonly description?: string;
  readonly enum?: ReadonlyArray<string | number | boolean | null>;
  readonly nullable?: boolean;
  readonly default?: unknown;
  readonly examples?: readonly unknown[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly multipleOf?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly format?: string;
  readonly items?: SchemaNode;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems?: boolean;
  readonly properties?: readonly PropertyNode[];
  readonly additionalProperties?: boolean | SchemaNode;
  readonly variants?: readonly SchemaNode[];
}

interface PropertyNode {
  readonly name: string;
  readonly schema: SchemaNode;
  readonly required: boolean;
  readonly aliases: readonly string[];
  readonly context?: string;
  readonly extract?: 'content' | 'title';
  readonly sensitive?: boolean;
}

interface PageTool {
  readonly name: string;
  readonly description: string;
  readonly title?: string;
  readonly source: string;
  readonly options: {
    readonly tags?: readonly string[];
    readonly permissions?: readonly string[];
    readonly aliases?: readonly string[];
    readonly timeoutMs?: number;
  };
  readonly parameters: SchemaNode;
  readonly jsonSchema: unknown;
  readonly output?: SchemaNode;
  readonly providers: ReadonlyArray<{
    readonly provider: string;
    readonly label: string;
    readonly name: string;
    readonly definition: unknown;
  }>;
  readonly lint: readonly LintFinding[];
  readonly examples: readonly PlaygroundExample[];
}

interface PlaygroundExample {
  readonly label: string;
  readonly shape: 'auto' | 'arguments';
  readonly text: string;
  readonly outcome: 'valid' | 'repaired' | 'refused';
  readonly note?: string;
}

interface PageRegistry {
  readonly source: string;
  readonly allowRun: boolean;
  readonly providers: ReadonlyArray<{ readonly id: string; readonly label: string }>;
  readonly tools: readonly PageTool[];
  readonly setFindings: readonly LintFinding[];
  readonly lintTotals: { readonly errors: number; readonly warnings: number; readonly infos: number };
  readonly defaultContext: Record<string, unknown>;
}

type Target = { kind: 'span'; start: number; end: number } | { kind: 'name' } | { kind: 'text' } | { kind: 'none' };

interface LocatedTransformation {
  readonly path: string;
  readonly rule: string;
  readonly from?: unknown;
  readonly to?: unknown;
  readonly target: Target;
}

interface CallReport {
  readonly mode: 'prepare' | 'run';
  readonly shape: string;
  readonly calledName: string;
  readonly tool: string;
  readonly argumentsText: string;
  readonly ok: boolean;
  readonly transformations: readonly LocatedTransformation[];
  readonly params?: unknown;
  readonly value?: unknown;
  readonly error?: { readonly code: string; readonly message: string; readonly retryable: boolean };
  readonly modelMessage?: unknown;
  readonly durationMs?: number;
}

interface StatsSnapshot {
  readonly transformations: ReadonlyArray<{
    readonly tool: string;
    readonly rule: string;
    readonly model?: string;
    readonly count: number;
  }>;
  readonly securityEvents: number;
  readonly events: ReadonlyArray<{
    readonly time: string;
    readonly tool: string;
    readonly message: string;
    readonly key?: string;
    readonly path?: string;
  }>;
  readonly calls: ReadonlyArray<{
    readonly time: string;
    readonly origin: string;
    readonly mode: string;
    readonly tool: string;
    readonly ok: boolean;
    readonly code?: string;
    readonly transformations: number;
  }>;
}

const CONTEXT_PROPERTIES: Readonly<Record<string, string>> = {
  session_id: 'sessionId',
  job_id: 'jobId',
  flow_step_id: 'flowStepId',
  source_url: 'sourceUrl',
  image_url: 'imageUrl',
  handler_config: 'handlerConfig',
  persona: 'persona',
};

const config = readConfig();
let registry: PageRegistry | undefined;
let selectedTool = '';
let selectedSubtab: 'overview' | 'definitions' | 'form' = 'overview';
let selectedProvider = 'openai';

function readConfig(): InspectorConfig {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="toolwright-inspector"]');
  return JSON.parse(meta?.content ?? '{}') as InspectorConfig;
}

// ---------------------------------------------------------------------------------------------------------------
// DOM helpers

type Child = Node | string | null | undefined | false;

function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, unknown> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    // Attribute values are strings, numbers and booleans here (the page's own calls), never plain objects.
    // eslint-disable-next-line @typescript-eslint/no-base-to-string
    if (name === 'class') element.className = String(value);
    else if (name.startsWith('on') && typeof value === 'function')
      element.addEventListener(name.slice(2), value as EventListener);
    else if (name in element && !name.startsWith('data-') && !name.startsWith('aria-'))
      (element as unknown as Record<string, unknown>)[name] = value;
    // eslint-disable-next-line @typescript-eslint/no-base-to-string
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

function clear(element: Element, ...children: Child[]): void {
  element.replaceChildren();
  append(element, children);
}

function json(value: unknown): string {
  return value === undefined ? 'undefined' : JSON.stringify(value, null, 2);
}

function shortJson(value: unknown, length = 60): string {
  const text = value === undefined ? 'absent' : JSON.stringify(value);
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

function pill(text: string, kind = ''): HTMLSpanElement {
  return h('span', { class: `pill ${kind}` }, text);
}

async function api<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      'x-toolwright-token': config.token,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const payload = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new Error(payload.error ?? `HTTP ${response.status}`);
  return payload;
}

// ---------------------------------------------------------------------------------------------------------------
// Types in words

function typeLabel(schema: SchemaNode): string {
  if (schema.enum) return `enum ${schema.enum.map((value) => JSON.stringify(value)).join(' | ')}`;
  switch (schema.kind) {
    case 'int':
      return 'integer';
    case 'float':
      return 'number';
    case 'bool':
      return 'boolean';
    case 'date':
      return 'date (YYYY-MM-DD)';
    case 'datetime':
      return 'date-time (ISO 8601, with offset)';
    case 'array':
      return `array<${schema.items ? typeLabel(schema.items) : 'any'}>`;
    case 'object':
      return schema.properties && schema.properties.length > 0 ? 'object' : 'object (free-form)';
    case 'union':
      return (schema.variants ?? []).map(typeLabel).join(' | ');
    case 'string':
      return schema.format ? `string (${schema.format})` : 'string';
    default:
      return schema.kind;
  }
}

function constraints(schema: SchemaNode): string {
  const parts: string[] = [];
  if (schema.minimum !== undefined) parts.push(`≥ ${schema.minimum}`);
  if (schema.exclusiveMinimum !== undefined) parts.push(`> ${schema.exclusiveMinimum}`);
  if (schema.maximum !== undefined) parts.push(`≤ ${schema.maximum}`);
  if (schema.exclusiveMaximum !== undefined) parts.push(`< ${schema.exclusiveMaximum}`);
  if (schema.multipleOf !== undefined) parts.push(`multiple of ${schema.multipleOf}`);
  if (schema.minLength !== undefined) parts.push(`min length ${schema.minLength}`);
  if (schema.maxLength !== undefined) parts.push(`max length ${schema.maxLength}`);
  if (schema.minItems !== undefined) parts.push(`at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}`);
  if (schema.maxItems !== undefined) parts.push(`at most ${schema.maxItems} items`);
  if (schema.uniqueItems) parts.push('unique items');
  if (schema.pattern !== undefined) parts.push(`pattern ${schema.pattern}`);
  if (schema.nullable) parts.push('nullable');
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.join(', ');
}

// ---------------------------------------------------------------------------------------------------------------
// Views

function showView(view: string): void {
  // The playground follows the tool selected in the registry browser (its examples are that tool's).
  const playgroundTool = document.getElementById('playground-tool') as HTMLSelectElement | null;
  if (view === 'playground' && playgroundTool && selectedTool !== '' && playgroundTool.value !== selectedTool) {
    playgroundTool.value = selectedTool;
    playgroundTool.dispatchEvent(new Event('change'));
  }
  for (const button of document.querySelectorAll<HTMLButtonElement>('.tabs button'))
    button.setAttribute('aria-selected', String(button.dataset['view'] === view));
  for (const section of document.querySelectorAll<HTMLElement>('main > .view'))
    section.hidden = section.id !== `view-${view}`;
}

function currentTool(): PageTool | undefined {
  return registry?.tools.find((tool) => tool.name === selectedTool);
}

function renderToolList(): void {
  const list = document.getElementById('tool-list');
  if (!list || !registry) return;
  clear(
    list,
    h('h4', {}, `${registry.tools.length} tools`),
    ...registry.tools.map((tool) => {
      const errors = tool.lint.filter((finding) => finding.severity === 'error').length;
      const warnings = tool.lint.filter((finding) => finding.severity === 'warning').length;
      const parameters = (tool.parameters.properties ?? []).filter((property) => !property.context).length;
      return h(
        'button',
        {
          'data-tool': tool.name,
          'aria-current': String(tool.name === selectedTool),
          onclick: () => selectTool(tool.name),
        },
        h('div', { class: 'name' }, tool.name),
        h(
          'div',
          { class: 'meta' },
          pill(`${parameters} param${parameters === 1 ? '' : 's'}`, 'muted'),
          errors > 0 && pill(`${errors} lint error${errors === 1 ? '' : 's'}`, 'bad'),
          warnings > 0 && pill(`${warnings} warning${warnings === 1 ? '' : 's'}`, 'warn'),
          errors === 0 && warnings === 0 && pill('lint ok', 'ok'),
        ),
      );
    }),
  );
}

function selectTool(name: string, subtab?: typeof selectedSubtab): void {
  selectedTool = name;
  if (subtab) selectedSubtab = subtab;
  renderToolList();
  renderToolDetail();
}

function renderToolDetail(): void {
  const detail = document.getElementById('tool-detail');
  const tool = currentTool();
  if (!detail) return;
  if (!tool) {
    clear(detail, h('div', { class: 'card' }, h('p', { class: 'empty' }, 'No tools in this registry.')));
    return;
  }
  const options = tool.options;
  const header = h(
    'div',
    { class: 'card' },
    h('h2', {}, tool.name),
    tool.title ? h('p', { class: 'lead' }, tool.title) : null,
    h('p', {}, tool.description || '(no description)'),
    h(
      'div',
      { class: 'meta actions' },
      pill(`source: ${tool.source}`, 'muted'),
      ...(options.tags ?? []).map((tag) => pill(`tag ${tag}`)),
      ...(options.permissions ?? []).map((permission) => pill(`needs ${permission}`, 'warn')),
      ...(options.aliases ?? []).map((alias) => pill(`alias ${alias}`, 'muted')),
    ),
  );
  const subtabs = h(
    'div',
    { class: 'subtabs', role: 'tablist' },
    ...(['overview', 'definitions', 'form'] as const).map((name) =>
      h(
        'button',
        {
          role: 'tab',
          'data-subtab': name,
          'aria-selected': String(selectedSubtab === name),
          onclick: () => selectTool(tool.name, name),
        },
        { overview: 'Parameters & lint', definitions: 'Provider definitions', form: 'Form' }[name],
      ),
    ),
  );
  const body =
    selectedSubtab === 'overview'
      ? overview(tool)
      : selectedSubtab === 'definitions'
        ? definitions(tool)
        : toolForm(tool);
  clear(detail, header, h('div', { class: 'card' }, subtabs, body));
}

function overview(tool: PageTool): HTMLElement {
  const properties = tool.parameters.properties ?? [];
  const modelFacing = properties.filter((property) => !property.context);
  const context = properties.filter((property) => property.context);
  return h(
    'div',
    {},
    h('h3', {}, 'Parameters the model sends'),
    modelFacing.length === 0 ? h('p', { class: 'empty' }, 'none') : propertyTable(modelFacing, 'parameters'),
    context.length > 0 ? h('h3', { style: 'margin-top:16px' }, 'Trusted context (never sent by the model)') : null,
    context.length > 0
      ? h(
          'table',
          {},
          h(
            'tbody',
            {},
            ...context.map((property) =>
              h(
                'tr',
                {},
                h('td', { class: 'mono' }, property.name),
                h('td', { class: 'mono' }, `context.${CONTEXT_PROPERTIES[property.context ?? ''] ?? property.context}`),
                h('td', { class: 'hint' }, 'a value the model sends here is dropped and logged as a security event'),
              ),
            ),
          ),
        )
      : null,
    tool.output ? h('h3', { style: 'margin-top:16px' }, 'What it returns (checked after each call)') : null,
    tool.output ? propertyTable(tool.output.properties ?? [], 'parameters output') : null,
    h('h3', { style: 'margin-top:16px' }, `Lint (${tool.lint.length} finding${tool.lint.length === 1 ? '' : 's'})`),
    findingsList(tool.lint),
  );
}

/** A table of properties (the parameters the model sends, or the fields a tool returns), nested ones indented. */
function propertyTable(properties: readonly PropertyNode[], className: string): HTMLElement {
  return h(
    'table',
    { class: className },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, 'name'),
        h('th', {}, 'type'),
        h('th', {}, 'required'),
        h('th', {}, 'description'),
        h('th', {}, 'constraints'),
      ),
    ),
    h('tbody', {}, ...parameterRows(properties, '', 0)),
  );
}

/** The objects a schema holds at some depth (an object; an array of objects; an array of arrays of them). */
function nestedObject(schema: SchemaNode, suffix = ''): { schema: SchemaNode; suffix: string } | undefined {
  if (schema.kind === 'object' && schema.properties && schema.properties.length > 0) return { schema, suffix };
  if (schema.kind === 'array' && schema.items && suffix.length < 12) return nestedObject(schema.items, `${suffix}[]`);
  return undefined;
}

/**
 * One row per property, then the rows of the fields of any object it holds (an array of objects shows its items'
 * fields as `options[].label`), indented by depth; context fields are listed apart, never here.
 */
function parameterRows(properties: readonly PropertyNode[], prefix: string, depth: number): HTMLElement[] {
  const rows: HTMLElement[] = [];
  for (const property of properties) {
    if (property.context) continue;
    const path = `${prefix}${property.name}`;
    rows.push(
      h(
        'tr',
        { 'data-path': path, 'data-depth': String(Math.min(depth, 4)) },
        h(
          'td',
          { class: 'mono name' },
          path,
          property.aliases.length > 0 ? h('div', { class: 'hint' }, `aliases: ${property.aliases.join(', ')}`) : null,
        ),
        h('td', { class: 'mono type' }, typeLabel(property.schema)),
        h('td', {}, property.required ? 'yes' : 'no'),
        h(
          'td',
          {},
          property.schema.description ?? '',
          property.extract
            ? h('div', { class: 'hint' }, `filled from the latest data packet's ${property.extract} when absent`)
            : null,
        ),
        h('td', { class: 'hint constraints' }, constraintsOf(property.schema)),
      ),
    );
    const nested = depth < 8 ? nestedObject(property.schema) : undefined;
    if (nested) rows.push(...parameterRows(nested.schema.properties ?? [], `${path}${nested.suffix}.`, depth + 1));
  }
  return rows;
}

/** The constraints of a value and, for an array, of its items (`items: ≥ 1`). */
function constraintsOf(schema: SchemaNode): string {
  const own = constraints(schema);
  if (schema.kind !== 'array' || !schema.items) return own;
  const items = constraintsOf(schema.items);
  return [own, items === '' ? '' : `items: ${items}`].filter((part) => part !== '').join('; ');
}

function findingsList(findings: readonly LintFinding[]): HTMLElement {
  if (findings.length === 0) return h('p', { class: 'empty' }, 'No findings for any provider.');
  const order = { error: 0, warning: 1, info: 2 };
  const sorted = [...findings].sort((a, b) => order[a.severity] - order[b.severity]);
  const main = sorted.filter((finding) => finding.severity !== 'info');
  const infos = sorted.filter((finding) => finding.severity === 'info');
  return h(
    'div',
    {},
    main.length > 0 ? findingRows(main) : h('p', { class: 'empty' }, 'No errors or warnings for any provider.'),
    infos.length > 0
      ? h(
          'details',
          { class: 'more' },
          h(
            'summary',
            {},
            `${infos.length} info finding${infos.length === 1 ? '' : 's'} (handled for you: names the name codec encodes, keywords a provider cannot take moved into the description; the executor still enforces them)`,
          ),
          findingRows(infos),
        )
      : null,
  );
}

function findingRows(findings: readonly LintFinding[]): HTMLElement {
  return h(
    'div',
    { class: 'findings' },
    ...findings.map((finding) =>
      h(
        'div',
        { class: 'finding', 'data-severity': finding.severity },
        pill(
          finding.severity,
          finding.severity === 'error' ? 'bad' : finding.severity === 'warning' ? 'warn' : 'muted',
        ),
        h('span', { class: 'mono' }, `${finding.provider} · ${finding.rule}`),
        h('div', {}, finding.message, h('div', { class: 'fix' }, `Fix: ${finding.fix}`)),
      ),
    ),
  );
}

function definitions(tool: PageTool): HTMLElement {
  const chosen = tool.providers.find((entry) => entry.provider === selectedProvider) ?? tool.providers[0];
  const findings = tool.lint.filter((finding) => finding.provider === chosen?.provider);
  return h(
    'div',
    { class: 'provider-row' },
    h(
      'div',
      { class: 'provider-picker', role: 'tablist' },
      ...tool.providers.map((entry) => {
        const errors = tool.lint.filter(
          (finding) => finding.provider === entry.provider && finding.severity === 'error',
        ).length;
        return h(
          'button',
          {
            'data-provider': entry.provider,
            'aria-selected': String(entry.provider === chosen?.provider),
            onclick: () => {
              selectedProvider = entry.provider;
              renderToolDetail();
            },
          },
          entry.label,
          errors > 0 ? h('span', {}, ' ', pill(`${errors}`, 'bad')) : null,
          h('small', {}, entry.name),
        );
      }),
    ),
    h(
      'div',
      {},
      chosen
        ? h(
            'p',
            { class: 'hint' },
            `Exactly what ${chosen.label} receives for this tool${chosen.name !== tool.name ? ` (the name codec sends "${chosen.name}" and maps it back to "${tool.name}")` : ''}.`,
          )
        : null,
      h('pre', { class: 'definition' }, json(chosen?.definition)),
      findings.length > 0 ? h('h3', { style: 'margin-top:14px' }, 'Lint for this provider') : null,
      findings.length > 0 ? findingsList(findings) : null,
    ),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Forms generated from the schema

/** A control for one schema node: its element and how to read its value (`undefined` = absent). */
interface Control {
  readonly element: HTMLElement;
  read(): unknown;
}

function localOffset(): string {
  const minutes = -new Date().getTimezoneOffset();
  const sign = minutes >= 0 ? '+' : '-';
  const absolute = Math.abs(minutes);
  return `${sign}${String(Math.floor(absolute / 60)).padStart(2, '0')}:${String(absolute % 60).padStart(2, '0')}`;
}

function parseLoose(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function control(schema: SchemaNode, path: string): Control {
  const name = path;
  if (schema.enum && schema.enum.length > 0) {
    const select = h(
      'select',
      { name },
      h('option', { value: '' }, '(not set)'),
      ...schema.enum.map((value, index) => h('option', { value: String(index) }, JSON.stringify(value))),
    );
    return { element: select, read: () => (select.value === '' ? undefined : schema.enum?.[Number(select.value)]) };
  }
  switch (schema.kind) {
    case 'string': {
      const input = h('input', {
        type: schema.format === 'email' ? 'email' : schema.format === 'uri' ? 'url' : 'text',
        name,
        placeholder: schema.pattern
          ? `pattern ${schema.pattern}`
          : ((schema.examples?.[0] as string | undefined) ?? ''),
        maxLength: schema.maxLength,
      });
      return { element: input, read: () => (input.value === '' ? undefined : input.value) };
    }
    case 'int':
    case 'float': {
      const input = h('input', {
        type: 'number',
        name,
        step: schema.kind === 'int' ? '1' : 'any',
        min: schema.minimum,
        max: schema.maximum,
      });
      return { element: input, read: () => (input.value === '' ? undefined : Number(input.value)) };
    }
    case 'bool': {
      const select = h(
        'select',
        { name },
        h('option', { value: '' }, '(not set)'),
        h('option', { value: 'true' }, 'true'),
        h('option', { value: 'false' }, 'false'),
      );
      return { element: select, read: () => (select.value === '' ? undefined : select.value === 'true') };
    }
    case 'date': {
      const input = h('input', { type: 'date', name });
      return { element: input, read: () => (input.value === '' ? undefined : input.value) };
    }
    case 'datetime': {
      const input = h('input', { type: 'datetime-local', name, step: '1' });
      const offset = h('input', {
        type: 'text',
        class: 'offset',
        name: `${name}#offset`,
        value: localOffset(),
        title: 'UTC offset (+01:00, -05:00, Z)',
      });
      return {
        element: h('div', { class: 'datetime' }, input, offset, h('span', { class: 'hint' }, 'offset')),
        read: () => {
          if (input.value === '') return undefined;
          const seconds = input.value.length === 16 ? `${input.value}:00` : input.value;
          return `${seconds}${offset.value.trim() || 'Z'}`;
        },
      };
    }
    case 'array':
      return arrayControl(schema, path);
    case 'object':
      if (schema.properties && schema.properties.length > 0) return objectControl(schema, path);
      break;
    default:
      break;
  }
  const area = h('textarea', { name, placeholder: 'JSON value', rows: 3 });
  return { element: area, read: () => (area.value.trim() === '' ? undefined : parseLoose(area.value)) };
}

function arrayControl(schema: SchemaNode, path: string): Control {
  const items: Control[] = [];
  const list = h('div', { class: 'array-items' });
  const itemSchema: SchemaNode = schema.items ?? { kind: 'any' };
  const add = () => {
    const item = control(itemSchema, `${path}[${items.length}]`);
    const row = h('div', { class: 'array-item' }, h('div', { class: 'control' }, item.element));
    const remove = h(
      'button',
      {
        type: 'button',
        class: 'small',
        title: 'Remove this item',
        onclick: () => {
          items.splice(items.indexOf(item), 1);
          row.remove();
        },
      },
      '✕',
    );
    row.appendChild(remove);
    items.push(item);
    list.appendChild(row);
  };
  for (let index = 0; index < Math.max(1, schema.minItems ?? 0); index++) add();
  const element = h(
    'div',
    { class: 'array', 'data-path': path },
    list,
    h(
      'div',
      { style: 'margin-top:6px' },
      h('button', { type: 'button', class: 'small add-item', onclick: add }, `+ add ${typeLabel(itemSchema)}`),
    ),
  );
  return {
    element,
    read: () => {
      const values = items.map((item) => item.read()).filter((value) => value !== undefined);
      return values.length === 0 ? undefined : values;
    },
  };
}

interface FieldsControl extends Control {
  readonly contextFields: ReadonlyArray<{ readonly property: PropertyNode }>;
}

function fieldRow(property: PropertyNode, item: Control): HTMLElement {
  const schema = property.schema;
  return h(
    'div',
    { class: 'field', 'data-field': property.name },
    h(
      'label',
      {},
      h('span', { class: 'key' }, property.name),
      property.required ? h('span', { class: 'required', title: 'required' }, '*') : null,
      h('span', { class: 'type' }, typeLabel(schema)),
    ),
    h(
      'div',
      {},
      item.element,
      schema.description || constraints(schema) || property.extract
        ? h(
            'div',
            { class: 'help' },
            [
              schema.description,
              constraints(schema),
              property.extract ? `empty: filled from the latest data packet's ${property.extract}` : '',
            ]
              .filter(Boolean)
              .join(' · '),
          )
        : null,
    ),
  );
}

function objectControl(schema: SchemaNode, path: string): FieldsControl {
  const controls: Array<{ property: PropertyNode; control: Control }> = [];
  const contextFields: Array<{ property: PropertyNode }> = [];
  const rows: HTMLElement[] = [];
  for (const property of schema.properties ?? []) {
    if (property.context) {
      contextFields.push({ property });
      continue;
    }
    const item = control(property.schema, path === '' ? property.name : `${path}.${property.name}`);
    controls.push({ property, control: item });
    rows.push(fieldRow(property, item));
  }
  const element =
    path === ''
      ? h('div', { class: 'fields' }, ...rows)
      : h('fieldset', { 'data-path': path }, h('legend', {}, typeLabel(schema)), ...rows);
  if (path === '') element.style.display = 'grid';
  if (path === '') element.style.gap = '12px';
  return {
    element,
    contextFields,
    read: () => {
      const value: Record<string, unknown> = {};
      for (const { property, control: item } of controls) {
        const entry = item.read();
        if (entry !== undefined) value[property.name] = entry;
      }
      return path !== '' && Object.keys(value).length === 0 ? undefined : value;
    },
  };
}

function contextEditor(contextFields: ReadonlyArray<{ readonly property: PropertyNode }>): {
  element: HTMLElement;
  read(): Record<string, unknown>;
} {
  const inputs = contextFields.map(({ property }) => {
    const key = CONTEXT_PROPERTIES[property.context ?? ''] ?? property.context ?? property.name;
    const structured = key === 'persona' || key === 'handlerConfig';
    const input = structured
      ? h('textarea', { name: `context.${key}`, rows: 2, placeholder: 'JSON object' })
      : h('input', { type: 'text', name: `context.${key}`, placeholder: `context.${key}` });
    return { property, key, input, structured };
  });
  const other = h('textarea', { name: 'context', rows: 3 });
  other.value = json(registry?.defaultContext ?? {});
  const element = h(
    'fieldset',
    { class: 'context' },
    h('legend', {}, 'Trusted context: set by the application, never by the model'),
    ...inputs.map(({ property, key, input }) =>
      h(
        'div',
        { class: 'field', 'data-context-field': property.name },
        h('label', {}, h('span', { class: 'key' }, property.name), h('span', { class: 'type' }, `context.${key}`)),
        h('div', {}, input),
      ),
    ),
    h(
      'div',
      { class: 'field' },
      h(
        'label',
        {},
        h('span', { class: 'key' }, 'execution context'),
        h('span', { class: 'type' }, 'JSON: timeZone, persona, …'),
      ),
      h('div', {}, other),
    ),
  );
  return {
    element,
    read: () => {
      const parsed = other.value.trim() === '' ? {} : (JSON.parse(other.value) as Record<string, unknown>);
      for (const { key, input, structured } of inputs) {
        if (input.value.trim() === '') continue;
        parsed[key] = structured ? JSON.parse(input.value) : input.value;
      }
      return parsed;
    },
  };
}

function toolForm(tool: PageTool): HTMLElement {
  const fields = objectControl(tool.parameters, '');
  const context = contextEditor(fields.contextFields);
  const preview = h('pre', { class: 'arguments-preview' }, '{}');
  const result = h('div', { class: 'result' });
  const updatePreview = () => {
    preview.textContent = json(fields.read());
  };
  const submit = async (run: boolean) => {
    const argumentsValue = fields.read();
    updatePreview();
    let contextValue: Record<string, unknown>;
    try {
      contextValue = context.read();
    } catch (error) {
      clear(result, h('div', { class: 'error-box' }, `The context is not valid JSON: ${(error as Error).message}`));
      return;
    }
    if (run && !(await confirmRun(tool.name))) return;
    clear(result, h('p', { class: 'hint' }, run ? 'Running…' : 'Preparing…'));
    try {
      const { report } = await api<{ report: CallReport }>('api/call', {
        tool: tool.name,
        arguments: argumentsValue,
        context: contextValue,
        run,
        confirm: run,
      });
      clear(result, renderReport(report));
    } catch (error) {
      clear(result, h('div', { class: 'error-box' }, (error as Error).message));
    }
  };
  const form = h(
    'form',
    {
      class: 'tool-form',
      'data-tool': tool.name,
      oninput: updatePreview,
      onchange: updatePreview,
      onsubmit: (event: Event) => {
        event.preventDefault();
        void submit(false);
      },
    },
    fields.element,
    context.element,
    h(
      'div',
      { class: 'field' },
      h('label', {}, h('span', { class: 'key' }, 'arguments'), h('span', { class: 'type' }, 'what the form sends')),
      preview,
    ),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit', class: 'primary', 'data-action': 'prepare' }, 'Prepare (dry run)'),
      h(
        'button',
        {
          type: 'button',
          class: 'danger',
          'data-action': 'run',
          disabled: !config.allowRun,
          onclick: () => void submit(true),
        },
        'Run handler…',
      ),
      h(
        'span',
        { class: 'hint' },
        config.allowRun
          ? 'Prepare validates without calling the handler; Run asks for confirmation first.'
          : 'Running handlers is off (start the inspector with --allow-run).',
      ),
    ),
  );
  return h('div', {}, form, result);
}

function confirmRun(tool: string): Promise<boolean> {
  const dialog = document.getElementById('confirm-run') as HTMLDialogElement | null;
  const text = document.getElementById('confirm-text');
  if (!dialog || !text) return Promise.resolve(false);
  text.textContent = `This calls the real handler of "${tool}" in the application, with the arguments and context shown. Side effects happen for real.`;
  dialog.returnValue = '';
  dialog.showModal();
  return new Promise((resolve) =>
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'run'), { once: true }),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// A call report: transformations highlighted against the original text, then parameters, result or error

function highlighted(text: string, transformations: readonly LocatedTransformation[]): HTMLElement {
  const spans = transformations
    .map((transformation, index) => ({ transformation, index }))
    .filter(
      (
        entry,
      ): entry is {
        transformation: LocatedTransformation & { target: { kind: 'span'; start: number; end: number } };
        index: number;
      } => entry.transformation.target.kind === 'span',
    )
    .sort((a, b) => a.transformation.target.start - b.transformation.target.start);
  const element = h('pre', { class: 'original' });
  let cursor = 0;
  let open: { end: number; mark: HTMLElement } | undefined;
  for (const { transformation, index } of spans) {
    const { start, end } = transformation.target;
    if (open && start < open.end) {
      // Overlapping change on the same text (e.g. a value parsed, then converted): number it on the same mark.
      open.mark.appendChild(h('sup', {}, String(index + 1)));
      continue;
    }
    if (start < cursor) continue;
    element.appendChild(document.createTextNode(text.slice(cursor, start)));
    const security = transformation.rule.startsWith('dropped-context');
    const mark = h(
      'mark',
      {
        class: security ? 'security' : '',
        title: `${index + 1}. ${transformation.rule}`,
        'data-rule': transformation.rule,
      },
      text.slice(start, end),
      h('sup', {}, String(index + 1)),
    );
    element.appendChild(mark);
    open = { end, mark };
    cursor = end;
  }
  element.appendChild(document.createTextNode(text.slice(cursor)));
  if (text === '') element.textContent = '(no arguments)';
  return element;
}

function renderReport(report: CallReport): HTMLElement {
  const outcome = report.ok
    ? h(
        'div',
        { class: 'outcome ok', 'data-outcome': 'ok' },
        '✓ ',
        report.mode === 'prepare' ? 'Valid: the handler would receive the parameters below' : 'The handler ran',
        report.durationMs !== undefined ? h('span', { class: 'hint duration' }, `${report.durationMs} ms`) : null,
      )
    : h(
        'div',
        { class: 'outcome bad', 'data-outcome': 'refused' },
        '✗ Refused: ',
        h('span', { class: 'mono' }, report.error?.code ?? ''),
        report.error?.retryable ? pill('the model may retry', 'warn') : null,
      );
  const whole = report.transformations
    .map((transformation, index) => ({ transformation, index }))
    .filter(({ transformation }) => transformation.target.kind !== 'span');
  const named =
    report.calledName !== report.tool
      ? h('p', { class: 'hint' }, `Called as "${report.calledName}", resolved to "${report.tool}".`)
      : null;
  const transformations =
    report.transformations.length === 0
      ? h('p', { class: 'empty' }, 'No transformations: the arguments were used as sent.')
      : h(
          'ol',
          { class: 'transformations' },
          ...report.transformations.map((transformation, index) =>
            h(
              'li',
              {
                class: transformation.rule.startsWith('dropped-context') ? 'security' : '',
                'data-rule': transformation.rule,
              },
              h('span', { class: 'badge-index' }, String(index + 1)),
              h(
                'span',
                { class: 'path' },
                transformation.target.kind === 'name' ? '(tool name)' : transformation.path || '(arguments text)',
              ),
              h('span', { class: 'rule' }, transformation.rule),
              h(
                'span',
                { class: 'change' },
                `${'from' in transformation ? shortJson(transformation.from) : '—'}  →  ${'to' in transformation ? shortJson(transformation.to) : 'dropped'}`,
              ),
            ),
          ),
        );
  const outputBlock = report.ok
    ? h(
        'div',
        {},
        h('h3', {}, report.mode === 'prepare' ? 'Validated parameters' : 'Handler result'),
        h(
          'pre',
          { class: report.mode === 'prepare' ? 'params' : 'value' },
          json(report.mode === 'prepare' ? report.params : report.value),
        ),
      )
    : h(
        'div',
        {},
        h('h3', {}, 'The message the model gets'),
        h('pre', { class: 'model-message' }, report.error?.message ?? ''),
      );
  const providerMessage =
    report.modelMessage !== undefined && report.shape !== 'arguments'
      ? h(
          'div',
          {},
          h(
            'h3',
            {},
            `…as the ${registry?.providers.find((provider) => provider.id === report.shape)?.label ?? report.shape} tool result message`,
          ),
          h('pre', { class: 'provider-message' }, json(report.modelMessage)),
        )
      : null;
  return h(
    'div',
    { class: 'report', 'data-ok': String(report.ok) },
    outcome,
    named,
    h(
      'div',
      {},
      h('h3', {}, 'Arguments as the model sent them'),
      highlighted(report.argumentsText, report.transformations),
      whole.length > 0
        ? h(
            'p',
            { class: 'hint' },
            `Not a single span of the text: ${whole.map(({ index, transformation }) => `${index + 1} (${transformation.target.kind === 'none' ? 'added from the context' : transformation.target.kind === 'name' ? 'the tool name' : 'the whole text'})`).join(', ')}.`,
          )
        : null,
    ),
    h('div', {}, h('h3', {}, `Transformations (${report.transformations.length})`), transformations),
    outputBlock,
    providerMessage,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Playground

function renderPlayground(): void {
  const view = document.getElementById('view-playground');
  if (!view || !registry) return;
  const input = h('textarea', {
    id: 'playground-input',
    spellcheck: false,
    placeholder:
      "Paste a model's tool call: a provider response (OpenAI, Anthropic, Gemini, …), a Qwen/Hermes <tool_call> text, or bare arguments text.",
  });
  const shape = h(
    'select',
    { id: 'playground-shape' },
    h('option', { value: 'auto' }, 'detect the shape'),
    h('option', { value: 'arguments' }, 'bare arguments text'),
    ...registry.providers.map((provider) => h('option', { value: provider.id }, provider.label)),
  );
  const tool = h(
    'select',
    { id: 'playground-tool', onchange: () => showExamples() },
    ...registry.tools.map((entry) => h('option', { value: entry.name }, entry.name)),
  );
  if (selectedTool !== '') tool.value = selectedTool;
  const context = h('textarea', { id: 'playground-context', rows: 3 });
  context.value = json(registry.defaultContext);
  const result = h('div', { class: 'result', id: 'playground-result' });
  const submit = async (run: boolean) => {
    let contextValue: unknown;
    try {
      contextValue = context.value.trim() === '' ? {} : JSON.parse(context.value);
    } catch (error) {
      clear(result, h('div', { class: 'error-box' }, `The context is not valid JSON: ${(error as Error).message}`));
      return;
    }
    if (run && !(await confirmRun(tool.value))) return;
    clear(result, h('p', { class: 'hint' }, 'Working…'));
    try {
      const answer = await api<{ shape: string; found: number; report: CallReport }>('api/playground', {
        input: input.value,
        shape: shape.value,
        tool: tool.value,
        context: contextValue,
        run,
        confirm: run,
      });
      clear(
        result,
        h(
          'p',
          { class: 'hint', 'data-shape': answer.shape },
          answer.shape === 'arguments'
            ? `Read as bare arguments for ${tool.value}.`
            : `Read as a tool call in the ${registry?.providers.find((provider) => provider.id === answer.shape)?.label ?? answer.shape} shape${answer.found > 1 ? ` (${answer.found} calls found; the first is shown)` : ''}.`,
        ),
        renderReport(answer.report),
      );
    } catch (error) {
      clear(result, h('div', { class: 'error-box' }, (error as Error).message));
    }
  };
  // The examples of the selected tool: generated by the inspector from the tool's own parameters, each checked
  // with the executor (a valid call, malformed variants the policy repairs, the call cut off).
  const examples = h('div', { class: 'samples', id: 'playground-examples' });
  const showExamples = () => {
    const entry = registry?.tools.find((candidate) => candidate.name === tool.value);
    clear(
      examples,
      h('span', { class: 'hint' }, `Examples for ${tool.value}:`),
      ...(entry?.examples ?? []).map((example) =>
        h(
          'button',
          {
            type: 'button',
            class: 'small',
            'data-outcome': example.outcome,
            title: example.note ?? `prepare: ${example.outcome}`,
            onclick: () => {
              input.value = example.text;
              shape.value = example.shape;
            },
          },
          example.label,
          example.note ? h('span', { class: 'pill warn' }, example.outcome) : null,
        ),
      ),
    );
  };
  showExamples();
  clear(
    view,
    h(
      'div',
      { class: 'card playground-input' },
      h('h3', {}, 'Playground: a raw model call through the executor'),
      h(
        'p',
        { class: 'lead' },
        'Each change the pipeline makes is numbered and highlighted in the text the model sent; then the validated parameters, the handler’s result, or the exact message the model would get back.',
      ),
      examples,
      input,
      h(
        'div',
        { class: 'controls' },
        h('label', {}, 'shape', shape),
        h('label', {}, 'tool (for bare arguments)', tool),
      ),
      h('details', {}, h('summary', { class: 'hint' }, 'Trusted execution context'), context),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          { type: 'button', class: 'primary', id: 'playground-prepare', onclick: () => void submit(false) },
          'Prepare (dry run)',
        ),
        h(
          'button',
          {
            type: 'button',
            class: 'danger',
            id: 'playground-run',
            disabled: !config.allowRun,
            onclick: () => void submit(true),
          },
          'Run handler…',
        ),
      ),
    ),
    h('div', { class: 'card' }, result),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Statistics, live

function renderStats(stats: StatsSnapshot): void {
  const view = document.getElementById('view-stats');
  if (!view) return;
  const ok = stats.calls.filter((call) => call.ok).length;
  const max = Math.max(1, ...stats.transformations.map((entry) => entry.count));
  clear(
    view,
    h(
      'div',
      { class: 'stats-grid' },
      h(
        'div',
        { class: 'metric' },
        h('div', { class: 'value', id: 'metric-calls' }, String(stats.calls.length)),
        h('div', { class: 'label' }, 'calls from this page'),
      ),
      h('div', { class: 'metric' }, h('div', { class: 'value' }, String(ok)), h('div', { class: 'label' }, 'ok')),
      h(
        'div',
        { class: 'metric' },
        h('div', { class: 'value' }, String(stats.calls.length - ok)),
        h('div', { class: 'label' }, 'refused'),
      ),
      h(
        'div',
        { class: `metric ${stats.securityEvents > 0 ? 'bad' : ''}` },
        h('div', { class: 'value', id: 'metric-security' }, String(stats.securityEvents)),
        h('div', { class: 'label' }, 'security events (model set trusted context)'),
      ),
    ),
    h(
      'div',
      { class: 'card' },
      h('h3', {}, 'Transformations per tool, rule and model'),
      stats.transformations.length === 0
        ? h('p', { class: 'empty' }, 'None yet: prepare or run a call.')
        : h(
            'table',
            { id: 'stats-table' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                h('th', {}, 'count'),
                h('th', {}, 'tool'),
                h('th', {}, 'rule'),
                h('th', {}, 'model'),
                h('th', { style: 'width:30%' }, ''),
              ),
            ),
            h(
              'tbody',
              {},
              ...stats.transformations.map((entry) =>
                h(
                  'tr',
                  {},
                  h('td', {}, String(entry.count)),
                  h('td', { class: 'mono' }, entry.tool),
                  h('td', { class: 'mono' }, entry.rule),
                  h('td', {}, entry.model ?? '—'),
                  h('td', {}, h('div', { class: 'bar', style: `width:${Math.round((entry.count / max) * 100)}%` })),
                ),
              ),
            ),
          ),
    ),
    h(
      'div',
      { class: 'card' },
      h('h3', {}, 'Security events'),
      stats.events.length === 0
        ? h('p', { class: 'empty' }, 'None: no model tried to set a trusted context field.')
        : h(
            'table',
            { id: 'security-table' },
            h(
              'tbody',
              {},
              ...stats.events.map((event) =>
                h(
                  'tr',
                  {},
                  h('td', { class: 'hint volatile time' }, clockTime(event.time)),
                  h('td', { class: 'mono' }, event.tool),
                  h('td', {}, event.message),
                ),
              ),
            ),
          ),
    ),
    h(
      'div',
      { class: 'card' },
      h('h3', {}, 'Recent calls'),
      stats.calls.length === 0
        ? h('p', { class: 'empty' }, 'None yet.')
        : h(
            'table',
            {},
            h(
              'tbody',
              {},
              ...stats.calls
                .slice(0, 20)
                .map((call) =>
                  h(
                    'tr',
                    {},
                    h('td', { class: 'hint volatile time' }, clockTime(call.time)),
                    h('td', {}, call.origin),
                    h('td', {}, call.mode),
                    h('td', { class: 'mono' }, call.tool),
                    h('td', {}, call.ok ? pill('ok', 'ok') : pill(call.code ?? 'refused', 'bad')),
                    h(
                      'td',
                      { class: 'hint' },
                      `${call.transformations} transformation${call.transformations === 1 ? '' : 's'}`,
                    ),
                  ),
                ),
            ),
          ),
    ),
  );
}

/** `14:05:09`: fixed width (a monospace cell), so a row's layout does not depend on the time. */
function clockTime(iso: string): string {
  return new Date(iso).toTimeString().slice(0, 8);
}

function connectStats(): void {
  const status = document.getElementById('status');
  const source = new EventSource(`api/stream?token=${encodeURIComponent(config.token)}`);
  const live = h('span', { id: 'live-status' }, 'connecting…');
  status?.appendChild(live);
  source.addEventListener('open', () => clear(live, h('span', { class: 'live' }), 'live'));
  source.addEventListener('error', () => clear(live, 'reconnecting…'));
  source.addEventListener('stats', (event) =>
    renderStats(JSON.parse((event as MessageEvent<string>).data) as StatsSnapshot),
  );
}

// ---------------------------------------------------------------------------------------------------------------

async function start(): Promise<void> {
  for (const button of document.querySelectorAll<HTMLButtonElement>('.tabs button'))
    button.addEventListener('click', () => showView(button.dataset['view'] ?? 'tools'));
  const status = document.getElementById('status');
  try {
    registry = await api<PageRegistry>('api/registry');
  } catch (error) {
    clear(
      document.getElementById('tool-detail') ?? document.body,
      h('div', { class: 'error-box' }, `Cannot load the registry: ${(error as Error).message}`),
    );
    return;
  }
  if (status) {
    append(status, [
      h('span', {}, registry.source),
      pill(`${registry.tools.length} tools`),
      registry.lintTotals.errors > 0
        ? pill(`${registry.lintTotals.errors} lint errors`, 'bad')
        : pill('lint: no errors', 'ok'),
      config.allowRun ? pill('handlers: run on confirmation', 'warn') : pill('handlers: prepare only', 'muted'),
    ]);
  }
  selectedTool = registry.tools[0]?.name ?? '';
  renderToolList();
  renderToolDetail();
  renderPlayground();
  renderStats({ transformations: [], securityEvents: 0, events: [], calls: [] });
  connectStats();
  document.body.dataset['ready'] = 'true';
}

void start();
