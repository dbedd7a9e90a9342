import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Command, PersonaToolExecutor, silentLogger, ToolParam, type ContentPart } from '@toolwright/core';
import { ToolwrightModule } from '@toolwright/nestjs';

class ReportParams {
  @ToolParam({ description: 'The page to read', type: 'int', required: false })
  page?: number;
}

@Injectable()
class ReportStore {
  rows(): { id: number; text: string }[] {
    return Array.from({ length: 20_000 }, (_, id) => ({ id, text: `row ${id}: ${'y'.repeat(240)}` }));
  }
}

@Injectable()
@Command({ name: 'big_report', description: 'The whole report', params: ReportParams })
class BigReportCommand {
  constructor(private readonly store: ReportStore) {}
  execute(): { rows: { id: number; text: string }[] } {
    return { rows: this.store.rows() };
  }
}

@Injectable()
@Command({
  name: 'report_summary',
  description: 'The report, summarized for the model',
  params: ReportParams,
  toModelOutput: (value: { rows: unknown[] }) => `${value.rows.length} rows`,
})
class ReportSummaryCommand {
  constructor(private readonly store: ReportStore) {}
  execute(): { rows: { id: number; text: string }[] } {
    return { rows: this.store.rows() };
  }
}

describe('a real Nest app: the result budget and the model view', () => {
  it('a 5 MB result is cut to the module budget for the model and whole for the app; toModelOutput applies', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ToolwrightModule.forRoot({ logger: silentLogger, executor: { resultBudgetChars: 30_000 } })],
      providers: [ReportStore, BigReportCommand, ReportSummaryCommand],
    }).compile();
    await moduleRef.init();
    try {
      const executor = moduleRef.get(PersonaToolExecutor);
      const result = await executor.execute({ id: 'n1', name: 'big_report', arguments: '{}' });
      if (!result.ok) throw new Error(result.error.message);
      expect((result.value as { rows: unknown[] }).rows).toHaveLength(20_000);
      const [json, note] = result.modelOutput!.content as ContentPart[];
      const rows = (JSON.parse(JSON.stringify((json as { value: unknown }).value)) as { rows: unknown[] }).rows;
      expect(rows.length).toBeLessThan(20_000);
      expect(JSON.stringify((json as { value: unknown }).value).length).toBeLessThanOrEqual(30_000);
      expect((note as { text: string }).text).toContain('budget of 30,000 characters (about 7,500 tokens)');
      expect((note as { text: string }).text).toContain('call big_report again with its `page` parameter');

      const summary = await executor.execute({ id: 'n2', name: 'report_summary', arguments: '{}' });
      expect(summary).toMatchObject({ ok: true, modelOutput: { content: [{ type: 'text', text: '20000 rows' }] } });
    } finally {
      await moduleRef.close();
    }
  });
});
