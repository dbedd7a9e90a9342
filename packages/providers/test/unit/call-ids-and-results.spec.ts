import 'reflect-metadata';
import fc from 'fast-check';
import type { ToolErrorPayload } from '@toolwright/core';
import {
  ANTHROPIC_CALL_ID_PROFILE,
  BEDROCK_CALL_ID_PROFILE,
  CallIdCodec,
  MISTRAL_CALL_ID_PROFILE,
  createCallIdFactory,
  isGeneratedCallId,
} from '@toolwright/providers';
import { errorJsonText, errorMessageText, resultObject, successText, toJsonText } from '../../src/shared/results';

describe('CallIdCodec', () => {
  it.each([
    ['mistral', MISTRAL_CALL_ID_PROFILE, /^[a-zA-Z0-9]{9}$/],
    ['anthropic', ANTHROPIC_CALL_ID_PROFILE, /^[a-zA-Z0-9_-]{1,64}$/],
    ['bedrock', BEDROCK_CALL_ID_PROFILE, /^[a-zA-Z0-9_-]{1,64}$/],
  ] as const)('maps any id into the %s format and back (property)', (_name, profile, pattern) => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 80 }), { minLength: 1, maxLength: 20 }),
        (ids) => {
          const codec = new CallIdCodec(profile);
          const mapped = ids.map((id) => codec.toProvider(id));
          expect(new Set(mapped).size).toBe(ids.length);
          mapped.forEach((providerId, index) => {
            expect(providerId).toMatch(pattern);
            expect(codec.fromProvider(providerId)).toBe(ids[index]);
            expect(codec.toProvider(ids[index] as string)).toBe(providerId);
          });
        },
      ),
      { seed: 20261121, numRuns: 200 },
    );
  });

  it('keeps ids that are already valid and derives readable ones otherwise', () => {
    const anthropic = new CallIdCodec(ANTHROPIC_CALL_ID_PROFILE);
    expect(anthropic.toProvider('toolu_01A09q90qw90lq917835lq9')).toBe('toolu_01A09q90qw90lq917835lq9');
    expect(anthropic.toProvider('functions.Bash:0')).toMatch(/^functions_Bash_0_[0-9a-f]{8}$/);
    expect(new CallIdCodec(MISTRAL_CALL_ID_PROFILE).toProvider('D681PevKs')).toBe('D681PevKs');
    expect(anthropic.fromProvider('toolu_unknown')).toBe('toolu_unknown');
  });

  it('generates ordered, recognizable ids for calls without one', () => {
    const next = createCallIdFactory();
    const [first, second] = [next(0), next(1)];
    expect(first).toMatch(/^toolwright_call_[0-9A-Za-z]{8}_0$/);
    expect(second?.slice(0, -1)).toBe(first?.slice(0, -1));
    expect(isGeneratedCallId(first)).toBe(true);
    expect(isGeneratedCallId('call_abc')).toBe(false);
    expect(createCallIdFactory()(0)).not.toBe(first);
  });
});

describe('result rendering', () => {
  const unknownTool: ToolErrorPayload = {
    code: 'UNKNOWN_TOOL',
    message: 'There is no tool "get_calender".',
    issues: [],
    suggestions: ['get_calendar_events'],
    retryable: true,
  };

  it('renders values as text (strings as is) and as JSON objects', () => {
    expect(successText('plain')).toBe('plain');
    expect(successText({ a: 1 })).toBe('{"a":1}');
    expect(successText(undefined)).toBe('null');
    expect(toJsonText({ big: 10n })).toBe('{"big":"10"}');
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(toJsonText(cyclic)).toBe('"[object Object]"');
    expect(resultObject([1, 2])).toEqual({ output: [1, 2] });
    expect(resultObject({ a: 1 })).toEqual({ a: 1 });
  });

  it('adds the close names of an unknown tool when the message does not have them', () => {
    expect(errorMessageText(unknownTool)).toBe('There is no tool "get_calender". Did you mean: get_calendar_events?');
    expect(errorMessageText({ ...unknownTool, message: 'No tool. Did you mean get_calendar_events?' })).toBe(
      'No tool. Did you mean get_calendar_events?',
    );
    expect(JSON.parse(errorJsonText(unknownTool))).toEqual({
      error: {
        code: 'UNKNOWN_TOOL',
        message: 'There is no tool "get_calender".',
        retryable: true,
        suggestions: ['get_calendar_events'],
      },
    });
  });
});
