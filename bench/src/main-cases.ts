import { getMetadataStorage } from 'class-validator';
import { z } from 'zod';
import { ToolRegistry, silentLogger, type PersonaToolExecutor, type ToolResult } from '@toolwright/core';
import { measure, type MeasureOptions, type Measurement, type TaskSpec } from './harness';
import { row, type ArrayCosts, type Row } from './results';
import {
  JSON_TOOL_NAME,
  JSON_TOOL_NAME_ASYNC,
  TOOL_DESCRIPTION,
  TOOL_NAME,
  TOOL_NAME_ASYNC,
  scheduleMeeting,
  type BenchCall,
  type Outcome,
} from './scenario/shape';
import {
  ARRAY_BASE,
  ARRAY_SIZES,
  INVALID,
  INVALID_PATHS,
  MALFORMED,
  DAMAGED,
  UNREADABLE,
  VALID,
  call,
  nestedArrayCall,
  scalarArrayCall,
} from './scenario/inputs';
import { ScheduleMeetingAsyncCommand, ScheduleMeetingCommand } from './scenario/toolwright';
import {
  checkScheduleMeeting,
  handToolMap,
  handWrittenPipeline,
  normalizeScheduleMeeting,
  renderHandMessage,
} from './scenario/hand-written';
import {
  CvScheduleMeetingParams,
  ctcvPipeline,
  ctcvValidate,
  renderCvErrors,
  scheduleMeetingCvTool,
} from './scenario/class-validator';
import { scheduleMeetingSchema, scheduleMeetingZodTool, zodPipeline } from './scenario/zod';
import { ajvPipeline, createAjv, scheduleMeetingAjvTool } from './scenario/ajv';
import { langChainPipeline, scheduleMeetingLangChainTool } from './scenario/langchain';
import { aiSdkPipeline, scheduleMeetingAiTool } from './scenario/ai-sdk';
import { createExecutor, modeLabel } from './toolwright-setup';

type Mode = 'compiled' | 'reference' | 'default';
type Pipeline = (call: BenchCall) => Promise<Outcome>;

const CASE_OPTIONS: MeasureOptions = { timeMs: 450, rounds: 3, minSamplesPerRound: 4, targetBatchUs: 40 };
const ARRAY_OPTIONS: MeasureOptions = { timeMs: 300, rounds: 3, minSamplesPerRound: 3, targetBatchUs: 40 };

/** The hand-written fixes applied before a library that has none (the malformed case). */
const handFixer = (raw: unknown): unknown => normalizeScheduleMeeting(raw, []) ?? raw;

function toolwrightOutcome(result: ToolResult): Outcome {
  return result.ok ? { ok: true, value: result.value } : { ok: false, message: result.error.message };
}

export interface MainCaseResults {
  readonly rows: Row[];
  readonly arrays: ArrayCosts[];
  /** The model-facing message each path produced for the invalid call (for the record). */
  readonly invalidMessages: Record<string, string>;
  /** The transformations toolwright reported for the malformed call. */
  readonly malformedTransformations: Record<string, string[]>;
  /** Fatal: a path that does not accept the valid call, refuses nothing, ... (nothing is timed). */
  readonly problems: string[];
  /** Worth knowing, not fatal: e.g. a message that names fewer of the errors than the call has. */
  readonly notes: string[];
  /** Names of the classes in class-validator's global storage while these cases ran (its validate() scans them all). */
  readonly classValidatorClasses: string[];
}

export async function runMainCases(modes: readonly Mode[], log: (line: string) => void): Promise<MainCaseResults> {
  const registry = ToolRegistry.from([ScheduleMeetingCommand, ScheduleMeetingAsyncCommand], { logger: silentLogger });
  // The same parameters as JSON-Schema tools (what an MCP server or a config file declares), sync and async handler.
  const jsonParameters = registry.toJsonSchema(TOOL_NAME) as unknown as Record<string, unknown>;
  registry.registerJsonSchemaTool(
    { name: JSON_TOOL_NAME, description: TOOL_DESCRIPTION, parameters: jsonParameters },
    (params) => scheduleMeeting(params),
  );
  registry.registerJsonSchemaTool(
    { name: JSON_TOOL_NAME_ASYNC, description: TOOL_DESCRIPTION, parameters: jsonParameters },
    async (params) => scheduleMeeting(params),
  );
  const executors = new Map<Mode, PersonaToolExecutor>(modes.map((mode) => [mode, createExecutor(registry, mode)]));

  const hand = handWrittenPipeline(handToolMap());
  const ctcv = ctcvPipeline(new Map([[TOOL_NAME, scheduleMeetingCvTool]]));
  const ctcvFixed = ctcvPipeline(new Map([[TOOL_NAME, { ...scheduleMeetingCvTool, normalize: handFixer }]]));
  const zodE2e = zodPipeline(new Map([[TOOL_NAME, scheduleMeetingZodTool]]));
  const zodFixed = zodPipeline(new Map([[TOOL_NAME, { ...scheduleMeetingZodTool, normalize: handFixer }]]));
  const ajv = createAjv();
  const validate = ajv.compile(registry.toJsonSchema(TOOL_NAME));
  const ajvE2e = ajvPipeline(ajv, new Map([[TOOL_NAME, scheduleMeetingAjvTool(validate)]]));
  const ajvFixed = ajvPipeline(
    ajv,
    new Map([[TOOL_NAME, { ...scheduleMeetingAjvTool(validate), normalize: handFixer }]]),
  );
  const langChain = langChainPipeline(new Map([[TOOL_NAME, scheduleMeetingLangChainTool]]));
  const aiSdk = aiSdkPipeline({ [TOOL_NAME]: scheduleMeetingAiTool });

  const twExecute = (mode: Mode): Pipeline => {
    const executor = executors.get(mode)!;
    return async (call) => toolwrightOutcome(await executor.execute(call));
  };
  const twPrepare = (mode: Mode): Pipeline => {
    const executor = executors.get(mode)!;
    return async (call) => {
      const prepared = await executor.prepare(call);
      return prepared.ok ? { ok: true, value: prepared.params } : { ok: false, message: prepared.error.message };
    };
  };

  const e2ePaths: { id: string; label: string; run: Pipeline; direct?: (call: BenchCall) => unknown }[] = [
    { id: 'hand', label: 'hand-written pipeline', run: hand },
    { id: 'zod', label: 'zod 4 safeParse pipeline', run: zodE2e },
    { id: 'ajv', label: 'ajv compiled pipeline', run: ajvE2e },
    { id: 'ctcv', label: 'class-transformer + class-validator pipeline', run: ctcv },
    { id: 'langchain', label: 'LangChain tool.invoke', run: langChain },
    { id: 'ai-sdk', label: 'AI SDK tool path (safeParseJSON + executeTool)', run: aiSdk },
  ];
  for (const mode of modes) {
    const executor = executors.get(mode)!;
    e2ePaths.push({
      id: `tw-prepare-${mode}`,
      label: `toolwright prepare (${modeLabel(mode)})`,
      run: twPrepare(mode),
      direct: (call) => executor.prepare(call),
    });
    e2ePaths.push({
      id: `tw-execute-${mode}`,
      label: `toolwright execute (${modeLabel(mode)})`,
      run: twExecute(mode),
      direct: (call) => executor.execute(call),
    });
  }

  // Every path must do what its case says before it is timed.
  const problems: string[] = [];
  const notes: string[] = [];
  const invalidMessages: Record<string, string> = {};
  for (const path of e2ePaths) {
    const valid = await path.run(VALID);
    if (!valid.ok) problems.push(`${path.label} refused the valid call: ${valid.message}`);
    const invalid = await path.run(INVALID);
    if (invalid.ok) problems.push(`${path.label} accepted the invalid call`);
    else invalidMessages[path.label] = invalid.message;
  }
  for (const [label, message] of Object.entries(invalidMessages)) {
    if (label.startsWith('toolwright') || label.startsWith('hand')) {
      const missing = INVALID_PATHS.filter((path) => !message.includes(path));
      if (missing.length > 0)
        notes.push(
          `${label}: the invalid-call message does not name ${missing.join(', ')} (the call has ${INVALID_PATHS.length} errors: ${INVALID_PATHS.join(', ')})`,
        );
    }
  }
  const malformedTransformations: Record<string, string[]> = {};
  for (const mode of modes) {
    const result = await executors.get(mode)!.execute(MALFORMED);
    if (!result.ok)
      problems.push(`toolwright (${modeLabel(mode)}) refused the malformed call: ${result.error.message}`);
    malformedTransformations[modeLabel(mode)] = result.transformations.map(
      (change) => `${change.path || '(arguments)'}: ${change.rule}`,
    );
    if (result.transformations.length !== 3)
      problems.push(
        `toolwright (${modeLabel(mode)}) made ${result.transformations.length} transformations on the malformed call, expected 3`,
      );
  }
  const malformedPaths: { id: string; label: string; run: Pipeline }[] = [
    { id: 'hand', label: 'hand-written pipeline (its own fixes)', run: hand },
    { id: 'zod', label: 'hand-written fixes + zod 4 pipeline', run: zodFixed },
    { id: 'ajv', label: 'hand-written fixes + ajv pipeline', run: ajvFixed },
    { id: 'ctcv', label: 'hand-written fixes + CT+CV pipeline', run: ctcvFixed },
    ...e2ePaths.filter((path) => path.id.startsWith('tw-')),
  ];
  for (const path of malformedPaths) {
    const outcome = await path.run(MALFORMED);
    if (!outcome.ok) problems.push(`${path.label} refused the malformed call: ${outcome.message}`);
  }
  for (const call of [scalarArrayCall(10_000), nestedArrayCall(10_000), ARRAY_BASE]) {
    for (const path of e2ePaths.filter(
      (candidate) => ['hand', 'zod', 'ajv', 'ctcv'].includes(candidate.id) || candidate.id.startsWith('tw-execute'),
    )) {
      const outcome = await path.run(call);
      if (!outcome.ok) problems.push(`${path.label} refused an array case: ${outcome.message.slice(0, 300)}`);
    }
  }
  if (problems.length > 0)
    return {
      rows: [],
      arrays: [],
      invalidMessages,
      malformedTransformations,
      problems,
      notes,
      classValidatorClasses: [],
    };

  const classValidatorClasses = [
    ...(getMetadataStorage() as unknown as { validationMetadatas: Map<Function, unknown> }).validationMetadatas.keys(),
  ].map((target) => target.name);
  const rows: Row[] = [];
  const direct = (path: (typeof e2ePaths)[number]) => path.direct ?? path.run;

  // 1. Valid call.
  log('valid call ...');
  const parsedValid: unknown = JSON.parse(VALID.arguments);
  const validChecks: TaskSpec[] = [
    { id: 'valid:json-parse', fn: () => JSON.parse(VALID.arguments) },
    { id: 'valid:check:hand', fn: () => checkScheduleMeeting(parsedValid as Record<string, unknown>) },
    { id: 'valid:check:zod', fn: () => scheduleMeetingSchema.safeParse(parsedValid) },
    { id: 'valid:check:ajv', fn: () => validate(parsedValid) },
    { id: 'valid:check:ctcv', fn: () => ctcvValidate(CvScheduleMeetingParams, parsedValid) },
  ];
  const validE2e: TaskSpec[] = e2ePaths.map((path) => ({ id: `valid:e2e:${path.id}`, fn: () => direct(path)(VALID) }));
  const valid = await measure([...validChecks, ...validE2e], CASE_OPTIONS);
  const group = 'valid';
  rows.push(row(group, 'JSON.parse of the arguments alone', 'reference', valid.get('valid:json-parse')!));
  const checkBaselines = { handId: 'valid:check:hand', ctcvId: 'valid:check:ctcv' };
  rows.push(row(group, 'hand-written check', 'check', valid.get('valid:check:hand')!, checkBaselines));
  rows.push(row(group, 'zod 4 safeParse', 'check', valid.get('valid:check:zod')!, checkBaselines));
  rows.push(row(group, 'ajv compiled validate', 'check', valid.get('valid:check:ajv')!, checkBaselines));
  rows.push(row(group, 'plainToInstance + validate (CT+CV)', 'check', valid.get('valid:check:ctcv')!, checkBaselines));
  for (const path of e2ePaths)
    rows.push(
      row(group, path.label, 'e2e', valid.get(`valid:e2e:${path.id}`)!, {
        handId: 'valid:e2e:hand',
        ctcvId: 'valid:e2e:ctcv',
      }),
    );

  // 1b. The valid call by tool kind (decorated class command, JSON-Schema tool) and handler (async, synchronous), each
  // against the hand-written pipeline running the same kind of handler, in one measurement group.
  log('valid call by tool kind and handler ...');
  const primaryMode = modes[0]!;
  const primaryExecutor = executors.get(primaryMode)!;
  const kindCalls = {
    classSync: VALID,
    classAsync: call(VALID.arguments, TOOL_NAME_ASYNC),
    jsonSync: call(VALID.arguments, JSON_TOOL_NAME),
    jsonAsync: call(VALID.arguments, JSON_TOOL_NAME_ASYNC),
  };
  for (const [kind, kindCall] of Object.entries(kindCalls)) {
    const result = await primaryExecutor.execute(kindCall);
    if (!result.ok) problems.push(`toolwright (${kind}) refused the valid call: ${result.error.message}`);
  }
  const handAsync = await hand(kindCalls.classAsync);
  if (!handAsync.ok)
    problems.push(`the hand-written pipeline (async handler) refused the valid call: ${handAsync.message}`);
  if (problems.length > 0)
    return {
      rows: [],
      arrays: [],
      invalidMessages,
      malformedTransformations,
      problems,
      notes,
      classValidatorClasses: [],
    };
  const kinds = await measure(
    [
      { id: 'kinds:hand-async', fn: () => hand(kindCalls.classAsync) },
      { id: 'kinds:hand-sync', fn: () => hand(kindCalls.classSync) },
      // The ajv and zod pipelines run the same synchronous handler (awaited, as the hand-written pipeline awaits it).
      { id: 'kinds:ajv-sync', fn: () => ajvE2e(kindCalls.classSync) },
      { id: 'kinds:zod-sync', fn: () => zodE2e(kindCalls.classSync) },
      { id: `kinds:tw-json-async-${primaryMode}`, fn: () => primaryExecutor.execute(kindCalls.jsonAsync) },
      { id: `kinds:tw-class-async-${primaryMode}`, fn: () => primaryExecutor.execute(kindCalls.classAsync) },
      { id: `kinds:tw-json-sync-${primaryMode}`, fn: () => primaryExecutor.execute(kindCalls.jsonSync) },
      { id: `kinds:tw-class-sync-${primaryMode}`, fn: () => primaryExecutor.execute(kindCalls.classSync) },
    ],
    CASE_OPTIONS,
  );
  const modeText = modeLabel(primaryMode);
  rows.push(
    row('kinds', 'hand-written pipeline, async handler', 'e2e', kinds.get('kinds:hand-async')!, {
      handId: 'kinds:hand-async',
    }),
  );
  rows.push(
    row('kinds', 'hand-written pipeline, synchronous handler', 'e2e', kinds.get('kinds:hand-sync')!, {
      handId: 'kinds:hand-sync',
    }),
  );
  rows.push(
    row('kinds', 'ajv compiled pipeline, synchronous handler', 'e2e', kinds.get('kinds:ajv-sync')!, {
      handId: 'kinds:hand-sync',
    }),
  );
  rows.push(
    row('kinds', 'zod 4 safeParse pipeline, synchronous handler', 'e2e', kinds.get('kinds:zod-sync')!, {
      handId: 'kinds:hand-sync',
    }),
  );
  rows.push(
    row(
      'kinds',
      `toolwright execute, JSON-Schema tool, async handler (${modeText})`,
      'e2e',
      kinds.get(`kinds:tw-json-async-${primaryMode}`)!,
      { handId: 'kinds:hand-async' },
    ),
  );
  rows.push(
    row(
      'kinds',
      `toolwright execute, decorated class command, async handler (${modeText})`,
      'e2e',
      kinds.get(`kinds:tw-class-async-${primaryMode}`)!,
      { handId: 'kinds:hand-async' },
    ),
  );
  rows.push(
    row(
      'kinds',
      `toolwright execute, JSON-Schema tool, synchronous handler (${modeText})`,
      'e2e',
      kinds.get(`kinds:tw-json-sync-${primaryMode}`)!,
      { handId: 'kinds:hand-sync' },
    ),
  );
  rows.push(
    row(
      'kinds',
      `toolwright execute, decorated class command, synchronous handler (${modeText})`,
      'e2e',
      kinds.get(`kinds:tw-class-sync-${primaryMode}`)!,
      { handId: 'kinds:hand-sync' },
    ),
  );

  // 2. Invalid call, message rendered.
  log('invalid call ...');
  const parsedInvalid: unknown = JSON.parse(INVALID.arguments);
  const invalidChecks: TaskSpec[] = [
    {
      id: 'invalid:check:hand',
      fn: () => renderHandMessage(TOOL_NAME, checkScheduleMeeting(parsedInvalid as Record<string, unknown>)!),
    },
    {
      id: 'invalid:check:zod',
      fn: () => {
        const result = scheduleMeetingSchema.safeParse(parsedInvalid);
        return result.success ? '' : z.prettifyError(result.error);
      },
    },
    {
      id: 'invalid:check:ajv',
      fn: () =>
        validate(parsedInvalid) ? '' : ajv.errorsText(validate.errors, { separator: '\n', dataVar: 'arguments' }),
    },
    {
      id: 'invalid:check:ctcv',
      fn: async () => renderCvErrors(TOOL_NAME, (await ctcvValidate(CvScheduleMeetingParams, parsedInvalid)).errors),
    },
  ];
  const invalidE2e: TaskSpec[] = e2ePaths.map((path) => ({
    id: `invalid:e2e:${path.id}`,
    fn: () => direct(path)(INVALID),
  }));
  const invalid = await measure([...invalidChecks, ...invalidE2e], CASE_OPTIONS);
  const invalidCheckBaselines = { handId: 'invalid:check:hand', ctcvId: 'invalid:check:ctcv' };
  rows.push(
    row('invalid', 'hand-written check + message', 'check', invalid.get('invalid:check:hand')!, invalidCheckBaselines),
  );
  rows.push(
    row(
      'invalid',
      'zod 4 safeParse + z.prettifyError',
      'check',
      invalid.get('invalid:check:zod')!,
      invalidCheckBaselines,
    ),
  );
  rows.push(
    row('invalid', 'ajv validate + errorsText', 'check', invalid.get('invalid:check:ajv')!, invalidCheckBaselines),
  );
  rows.push(
    row('invalid', 'CT+CV validate + message', 'check', invalid.get('invalid:check:ctcv')!, invalidCheckBaselines),
  );
  for (const path of e2ePaths)
    rows.push(
      row('invalid', path.label, 'e2e', invalid.get(`invalid:e2e:${path.id}`)!, {
        handId: 'invalid:e2e:hand',
        ctcvId: 'invalid:e2e:ctcv',
      }),
    );

  // 3. Malformed call needing three fixes.
  log('malformed call ...');
  const directMalformed = (path: (typeof malformedPaths)[number]) =>
    e2ePaths.find((candidate) => candidate.id === path.id && candidate.id.startsWith('tw-'))?.direct ?? path.run;
  const malformed = await measure(
    malformedPaths.map((path) => ({ id: `malformed:e2e:${path.id}`, fn: () => directMalformed(path)(MALFORMED) })),
    CASE_OPTIONS,
  );
  for (const path of malformedPaths)
    rows.push(
      row('malformed', path.label, 'e2e', malformed.get(`malformed:e2e:${path.id}`)!, {
        handId: 'malformed:e2e:hand',
        ctcvId: 'malformed:e2e:ctcv',
      }),
    );

  // 3b. Unreadable text (refused by every path) and a call with one comma left out (read by toolwright's search, refused
  // by the others): the failure path's cost.
  log('unreadable and damaged text ...');
  const failurePaths = e2ePaths.filter((path) => path.id === 'hand' || path.id.startsWith('tw-execute'));
  for (const path of failurePaths.filter((candidate) => candidate.id.startsWith('tw-'))) {
    const damaged = await path.run(DAMAGED);
    if (!damaged.ok) problems.push(`${path.label} refused the call with one comma left out: ${damaged.message}`);
    if ((await path.run(UNREADABLE)).ok) problems.push(`${path.label} accepted the unreadable text`);
  }
  const failures = await measure(
    failurePaths.flatMap((path) => [
      { id: `unreadable:e2e:${path.id}`, fn: () => (path.direct ?? path.run)(UNREADABLE) },
      { id: `damaged:e2e:${path.id}`, fn: () => (path.direct ?? path.run)(DAMAGED) },
    ]),
    CASE_OPTIONS,
  );
  for (const group of ['unreadable', 'damaged'] as const)
    for (const path of failurePaths)
      rows.push(
        row(group, path.label, 'e2e', failures.get(`${group}:e2e:${path.id}`)!, {
          handId: `${group}:e2e:hand`,
        }),
      );

  // 4. Array fields of 10 to 10,000 items.
  const arrays: ArrayCosts[] = [];
  const arrayPaths: { id: string; label: string; fn: (call: BenchCall) => unknown }[] = [
    { id: 'json-parse', label: 'JSON.parse alone', fn: (call) => JSON.parse(call.arguments) },
    ...e2ePaths
      .filter((path) => ['hand', 'zod', 'ajv', 'ctcv'].includes(path.id) || path.id.startsWith('tw-execute'))
      .map((path) => ({ id: path.id, label: path.label, fn: direct(path) })),
  ];
  const base = ARRAY_BASE;
  const scalarCalls = new Map(ARRAY_SIZES.map((size) => [size, scalarArrayCall(size)]));
  const nestedCalls = new Map(ARRAY_SIZES.map((size) => [size, nestedArrayCall(size)]));
  for (const path of arrayPaths) {
    log(`arrays: ${path.label} ...`);
    const tasks: TaskSpec[] = [{ id: `${path.id}:base`, fn: () => path.fn(base) }];
    for (const size of ARRAY_SIZES) {
      const scalar = scalarCalls.get(size)!;
      const nested = nestedCalls.get(size)!;
      tasks.push({ id: `${path.id}:scalar:${size}`, fn: () => path.fn(scalar) });
      tasks.push({ id: `${path.id}:nested:${size}`, fn: () => path.fn(nested) });
    }
    const measured: Map<string, Measurement> = await measure(tasks, ARRAY_OPTIONS);
    const baseNs = measured.get(`${path.id}:base`)!.medianNs;
    const costs: ArrayCosts = {
      id: path.id,
      label: path.label,
      baseNs,
      scalarNs: {},
      nestedNs: {},
      scalarPerItemNs: {},
      nestedPerItemNs: {},
    };
    for (const size of ARRAY_SIZES) {
      const scalar = measured.get(`${path.id}:scalar:${size}`)!.medianNs;
      const nested = measured.get(`${path.id}:nested:${size}`)!.medianNs;
      costs.scalarNs[size] = scalar;
      costs.nestedNs[size] = nested;
      costs.scalarPerItemNs[size] = (scalar - baseNs) / size;
      costs.nestedPerItemNs[size] = (nested - baseNs) / size;
    }
    arrays.push(costs);
  }

  return { rows, arrays, invalidMessages, malformedTransformations, problems, notes, classValidatorClasses };
}
