import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type DefaultTheme } from 'vitepress';

// The documentation site, built from docs/ in place (`npm run docs:build`; the API reference is generated into
// docs/api-reference/ first by TypeDoc, see typedoc.json). Nothing under docs/ is moved for the site: the pages are
// the same files GitHub shows and CI compiles.
const DOCS = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = resolve(DOCS, '..');
const REPOSITORY = 'https://github.com/toolwright/toolwright';

/** GitHub's heading anchor: lower case, punctuation removed (`_` and `-` kept), each space a `-`. */
function githubSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The API reference's sidebar, written by typedoc-vitepress-theme (absent until TypeDoc has run). */
function apiReferenceSidebar(): DefaultTheme.SidebarItem[] {
  const file = join(DOCS, 'api-reference', 'typedoc-sidebar.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as DefaultTheme.SidebarItem[]) : [];
}

const guides: DefaultTheme.SidebarItem[] = [
  { text: 'Commands and parameters', link: '/commands-and-parameters' },
  { text: 'Cross-field validation', link: '/cross-field-validation' },
  { text: 'NestJS', link: '/nestjs' },
  { text: 'MCP client and server', link: '/mcp' },
  { text: 'AI SDK, LangChain, Agents SDK', link: '/interop' },
  { text: 'Providers', link: '/providers/README' },
  { text: 'Tool calls in text (open models)', link: '/text-tool-calls' },
  { text: 'Streaming tool calls', link: '/streaming' },
  { text: 'The tool loop', link: '/tool-loop' },
  { text: 'Tool search', link: '/tool-search' },
  { text: 'Approval', link: '/approval' },
  { text: 'Queue (BullMQ)', link: '/queue' },
  { text: 'Observability', link: '/observability' },
  { text: 'CLI', link: '/cli' },
  { text: 'Inspector', link: '/inspector' },
];

const concepts: DefaultTheme.SidebarItem[] = [
  { text: 'The pipeline', link: '/pipeline' },
  { text: 'What is repaired, what is refused', link: '/normalization' },
  { text: 'Tool definitions (the IR)', link: '/tool-definitions-ir' },
  { text: 'Errors', link: '/errors' },
  { text: 'Results and what the model reads', link: '/results' },
  { text: 'Security', link: '/security' },
  { text: 'Performance', link: '/performance' },
  { text: 'Performance notes', link: '/performance-notes' },
];

const providers: DefaultTheme.SidebarItem[] = [
  ['OpenAI', 'openai'],
  ['Anthropic', 'anthropic'],
  ['Gemini', 'gemini'],
  ['Bedrock', 'bedrock'],
  ['Mistral', 'mistral'],
  ['Cohere', 'cohere'],
  ['Ollama', 'ollama'],
  ['MCP', 'mcp'],
  ['Hermes (text)', 'hermes'],
].map(([text, page]) => ({ text, link: `/providers/${page}` }));

export default defineConfig({
  title: 'toolwright',
  description:
    'Write an AI tool command once as a decorated class; get every provider tool format and a safe, normalizing executor.',
  lang: 'en-US',
  cleanUrls: false,
  lastUpdated: false,
  // docs/snippets holds compiled example files, linked on GitHub (below), not pages.
  srcExclude: ['snippets/**', '**/node_modules/**'],
  markdown: {
    // Heading anchors as GitHub makes them, so a link written for the pages on GitHub (`#1-openai-chat-completions`)
    // works on the site too.
    anchor: { slugify: githubSlug },
    config(md) {
      // Links that leave docs/ (the repository's README, packages/*, examples/*) point at the repository on GitHub,
      // where those files live; links inside docs/ stay site links.
      const defaultLinkOpen =
        md.renderer.rules.link_open ??
        ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
      md.renderer.rules.link_open = (tokens, index, options, env: { relativePath?: string }, self) => {
        const token = tokens[index]!;
        const href = token.attrGet('href');
        if (href && env.relativePath && !/^[a-z]+:|^#|^\//i.test(href)) {
          const [target, hash] = href.split('#');
          const absolute = resolve(DOCS, dirname(env.relativePath), target!);
          const inRepository = relative(ROOT, absolute).split('\\').join('/');
          const insideDocs = !relative(DOCS, absolute).startsWith('..');
          const page = /\.md$/.test(target!) || (target!.endsWith('/') && existsSync(join(absolute, 'index.md')));
          if (!inRepository.startsWith('..') && !(insideDocs && page)) {
            const folder = existsSync(absolute) && statSync(absolute).isDirectory();
            token.attrSet(
              'href',
              `${REPOSITORY}/${folder ? 'tree' : 'blob'}/main/${inRepository}${hash ? `#${hash}` : ''}`,
            );
          }
        }
        return defaultLinkOpen(tokens, index, options, env, self);
      };
    },
  },
  themeConfig: {
    nav: [
      { text: 'Quickstart', link: '/quickstart' },
      { text: 'Guides', link: '/commands-and-parameters' },
      { text: 'Concepts', link: '/pipeline' },
      { text: 'API', link: '/api-reference/' },
    ],
    sidebar: [
      {
        text: 'Start here',
        items: [
          { text: 'Quickstart', link: '/quickstart' },
          { text: 'Installing before the first release', link: '/installing' },
        ],
      },
      { text: 'Guides', items: guides },
      { text: 'Providers', collapsed: true, items: providers },
      { text: 'Concepts', items: concepts },
      {
        text: 'Reference',
        items: [
          { text: 'API reference', link: '/api-reference/', collapsed: true, items: apiReferenceSidebar() },
          { text: 'Public API and changes', link: '/api' },
          { text: 'Releasing', link: '/releasing' },
          { text: 'Provider formats and threats', link: '/reference/README' },
        ],
      },
    ],
    search: { provider: 'local' },
    socialLinks: [{ icon: 'github', link: REPOSITORY }],
    outline: { level: [2, 3] },
  },
});
