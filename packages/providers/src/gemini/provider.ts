/**
 * gemini: the provider object (`defineProvider`): its rules, and its tools, calls and results as one typed spec.
 */
import { defineProvider } from '../shared/define-provider';
import { PORTABLE_NAME_PROFILE } from '../shared/name-profiles';
import { GEMINI_LIMITS, createToolSet, fromTool, type GeminiFunctionDeclaration } from './tools';
import type { GeminiSchema } from './schema';
import type { LintFinding, LoweredTool } from '../shared/provider';
import { createStreamAccumulator, parseToolCalls } from './calls';
import { toToolResultMessage, toToolResultMessages } from './results';

export const provider = defineProvider({
  id: 'gemini',
  label: 'Google Gemini',
  module: '@toolwright/providers/gemini',
  nameProfile: PORTABLE_NAME_PROFILE,
  limits: GEMINI_LIMITS,
  argumentsEncoding: 'object',
  errorChannel: 'response.error',
  supportsStrict: false,
  tools: {
    createToolSet,
    parametersOf: (tool) => (tool.parameters ? { ...tool.parameters } : undefined),
    nameOf: (tool) => tool.name,
    lint: (lowered) => propertyNameFindings(lowered),
    fromTool,
  },
  calls: { parse: parseToolCalls, createStreamAccumulator },
  results: { toMessage: toToolResultMessage, toMessages: toToolResultMessages },
});

/** The provider as the provider-neutral API lists it (`getProviders()`): the same object. */
export const descriptor = provider;

/** Gemini's parameter-name rule, on the lowered declarations (the `parameters` field; `parametersJsonSchema` has no such rule). */
function propertyNameFindings(lowered: readonly LoweredTool<GeminiFunctionDeclaration>[]): LintFinding[] {
  const findings: LintFinding[] = [];
  for (const { name: toolName, tool: declaration } of lowered) {
    if (!declaration.parameters) continue;
    const visit = (schema: GeminiSchema, path: string): void => {
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        const location = path === '' ? name : `${path}.${name}`;
        if (!GEMINI_LIMITS.propertyName.pattern.test(name)) {
          findings.push({
            tool: toolName,
            provider: 'gemini',
            rule: 'property-name',
            message: `parameter "${location}" does not match Gemini's parameter-name rule ${GEMINI_LIMITS.propertyName.rule}`,
            fix: "rename the parameter (declare the provider's spelling as an alias), or use schemaField: 'parametersJsonSchema'",
            severity: 'error',
          });
        }
        visit(property, location);
      }
      if (schema.items) visit(schema.items, `${path}[]`);
    };
    visit(declaration.parameters, '');
  }
  return findings;
}
