import { expect, it } from 'vitest';
import { existingIndexes } from '../ensure-tables.ts';
import { newApiClassicModels } from './__fixtures__/new-api-classic.ts';
import { moveOverSuite } from './testing/move-over-suite.ts';

moveOverSuite('new-api-classic', newApiClassicModels, {
  more(get) {
    it("adds the unique trade number index even over GORM's unindexed longtext (by prefix on MySQL)", async () => {
      const { db, dialect } = get().context.database;
      expect((await existingIndexes(db, 'top_ups', dialect)).has('uidx_top_ups_trade_no')).toBe(true);
    });
  },
});
