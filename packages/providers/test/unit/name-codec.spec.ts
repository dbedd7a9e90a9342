import 'reflect-metadata';
import fc from 'fast-check';
import { DefinitionError } from '@toolwright/core';
import {
  MCP_NAME_PROFILE,
  OPENAI_NAME_PROFILE,
  PORTABLE_NAME_PROFILE,
  ToolNameCodec,
  matchesProfile,
  withMaxLength,
} from '@toolwright/providers';

describe('ToolNameCodec', () => {
  it('keeps names that already satisfy the rule', () => {
    const codec = ToolNameCodec.create(['get_calendar_events', 'search-web'], OPENAI_NAME_PROFILE);
    expect(codec.encode('get_calendar_events')).toBe('get_calendar_events');
    expect(codec.entries().map((entry) => entry.strategy)).toEqual(['identity', 'identity']);
  });

  it('encodes slashes and dots readably and decodes back exactly', () => {
    const codec = ToolNameCodec.create(['decision/propose', 'math.factorial'], OPENAI_NAME_PROFILE);
    expect(codec.encode('decision/propose')).toBe('decision_propose');
    expect(codec.encode('math.factorial')).toBe('math_factorial');
    expect(codec.decode('decision_propose')).toBe('decision/propose');
    expect(codec.decode('math_factorial')).toBe('math.factorial');
  });

  it('keeps dots for MCP, which allows them', () => {
    expect(ToolNameCodec.create(['math.factorial'], MCP_NAME_PROFILE).encode('math.factorial')).toBe('math.factorial');
  });

  it('falls back to a hash suffix when the readable form is taken in the set', () => {
    const codec = ToolNameCodec.create(['math_factorial', 'math.factorial', 'math/factorial'], OPENAI_NAME_PROFILE);
    expect(codec.encode('math_factorial')).toBe('math_factorial');
    const dotted = codec.encode('math.factorial');
    const slashed = codec.encode('math/factorial');
    expect(dotted).toMatch(/^math_factorial_[0-9a-f]{8}$/);
    expect(slashed).toMatch(/^math_factorial_[0-9a-f]{8}$/);
    expect(dotted).not.toBe(slashed);
    expect(codec.decode(dotted)).toBe('math.factorial');
    expect(codec.decode(slashed)).toBe('math/factorial');
    // Deterministic: the same set encodes the same way every time.
    expect(
      ToolNameCodec.create(['math_factorial', 'math.factorial', 'math/factorial'], OPENAI_NAME_PROFILE).encode(
        'math.factorial',
      ),
    ).toBe(dotted);
  });

  it('throws a DefinitionError naming both tools when asked to refuse ambiguity', () => {
    expect(() =>
      ToolNameCodec.create(['math.factorial', 'math/factorial'], OPENAI_NAME_PROFILE, { onAmbiguity: 'error' }),
    ).toThrow(/"math\.factorial" and "math\/factorial" both become "math_factorial"/);
    expect(() => ToolNameCodec.create(['a.b', 'a_b'], OPENAI_NAME_PROFILE, { onAmbiguity: 'error' })).toThrow(
      DefinitionError,
    );
  });

  it('refuses a tool set with the same name twice', () => {
    expect(() => ToolNameCodec.create(['x', 'x'], OPENAI_NAME_PROFILE)).toThrow(/two tools are named "x"/);
  });

  it('shortens an 80-character name to 64 with a hash of the full name', () => {
    const long = `${'very_long_tool_name_'.repeat(4)}`;
    expect(long).toHaveLength(80);
    const other = `${long.slice(0, 70)}different`;
    const codec = ToolNameCodec.create([long, other], OPENAI_NAME_PROFILE);
    const encoded = codec.encode(long);
    expect(encoded).toHaveLength(64);
    expect(encoded).toMatch(/_[0-9a-f]{8}$/);
    expect(codec.encode(other)).not.toBe(encoded);
    expect(codec.decode(encoded)).toBe(long);
    // Anthropic's current 128-character limit keeps it whole.
    expect(ToolNameCodec.create([long], withMaxLength(OPENAI_NAME_PROFILE, 128)).encode(long)).toBe(long);
  });

  it('transliterates accents and hashes names with nothing readable left', () => {
    const codec = ToolNameCodec.create(['café.menü', '日本語ツール', '1st-tool'], PORTABLE_NAME_PROFILE);
    expect(codec.encode('café.menü')).toBe('cafe_menu');
    expect(codec.encode('日本語ツール')).toMatch(/^tool_[0-9a-f]{8}$/);
    // Gemini/portable: the first character must be a letter or an underscore.
    expect(codec.encode('1st-tool')).toBe('_1st-tool');
    for (const entry of codec.entries()) expect(codec.decode(entry.encoded)).toBe(entry.name);
  });

  it('passes unknown provider names through unchanged and refuses to encode names outside the set', () => {
    const codec = ToolNameCodec.create(['decision/propose'], OPENAI_NAME_PROFILE);
    expect(codec.decode('functions.decision_propose')).toBe('functions.decision_propose');
    expect(codec.has('decision/propose')).toBe(true);
    expect(() => codec.encode('other')).toThrow(/not part of this tool set's name codec/);
  });

  it('always produces valid, unique names that decode back (property)', () => {
    const character = fc.constantFrom(...'abcXYZ019_-./: é日🙂'.split(''), 'ü', '\u0301');
    const name = fc.array(character, { minLength: 1, maxLength: 90 }).map((characters) => characters.join(''));
    for (const profile of [OPENAI_NAME_PROFILE, PORTABLE_NAME_PROFILE, MCP_NAME_PROFILE]) {
      fc.assert(
        fc.property(fc.uniqueArray(name, { minLength: 1, maxLength: 12 }), (names) => {
          const codec = ToolNameCodec.create(names, profile);
          const encoded = names.map((item) => codec.encode(item));
          expect(new Set(encoded).size).toBe(names.length);
          for (const [index, item] of names.entries()) {
            expect(matchesProfile(encoded[index] ?? '', profile)).toBe(true);
            expect(codec.decode(encoded[index] ?? '')).toBe(item);
          }
        }),
        { seed: 20261121, numRuns: 300 },
      );
    }
  });
});
