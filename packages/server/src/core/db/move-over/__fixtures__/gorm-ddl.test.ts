import { describe, expect, it } from 'vitest';
import { gormDdl } from './gorm-ddl.ts';
import { newApiClassicModels } from './new-api-classic.ts';

const statementsOf = (dialect: 'sqlite' | 'postgres' | 'mysql', table: string) =>
  gormDdl(newApiClassicModels, dialect).filter((statement) => statement.includes(` \`${table}\``) || statement.includes(` "${table}"`));

/** Spot checks of the generator against GORM's type rules (its dialectors' DataTypeOf), so a slip in it shows. */
describe('the GORM DDL of the fixtures', () => {
  it('follows GORM on SQLite: integer, text, numeric booleans, the key in the id column', () => {
    const [users] = statementsOf('sqlite', 'users');
    expect(users).toContain('`id` integer PRIMARY KEY AUTOINCREMENT,`username` text UNIQUE,`password` text NOT NULL');
    expect(users).toContain("`group` varchar(64) DEFAULT 'default'");
    expect(users).toContain('`deleted_at` datetime');
    expect(users).not.toContain('PRIMARY KEY (`id`)');
    expect(statementsOf('sqlite', 'tokens')[0]).toContain('`unlimited_quota` numeric DEFAULT false');
  });

  it("follows GORM on MySQL: bigint, longtext, varchar(191) for keyed strings, datetime(3)", () => {
    const [users] = statementsOf('mysql', 'users');
    expect(users).toContain('`id` bigint AUTO_INCREMENT,`username` varchar(191) UNIQUE,`password` longtext NOT NULL');
    expect(users).toContain('`deleted_at` datetime(3)');
    expect(users).toContain('PRIMARY KEY (`id`)');
    const [tokens] = statementsOf('mysql', 'tokens');
    expect(tokens).toContain("`allow_ips` varchar(191) DEFAULT ''");
    expect(tokens).toContain('`unlimited_quota` boolean DEFAULT false');
    expect(statementsOf('mysql', 'top_ups')[0]).toContain('`trade_no` longtext');
    expect(statementsOf('mysql', 'channels')[0]).toContain('`weight` bigint unsigned DEFAULT 0');
  });

  it('follows GORM on PostgreSQL: bigserial, text, decimal floats, timestamptz', () => {
    const [users] = statementsOf('postgres', 'users');
    expect(users).toContain('"id" bigserial,"username" text UNIQUE,"password" text NOT NULL');
    expect(users).toContain('"deleted_at" timestamptz');
    expect(statementsOf('postgres', 'channels')[0]).toContain('"balance" decimal');
  });

  it('names indexes as GORM does, composite ones in priority order', () => {
    const logs = statementsOf('mysql', 'logs');
    expect(logs).toContain('CREATE INDEX `idx_created_at_id` ON `logs`(`id`,`created_at`)');
    expect(logs).toContain('CREATE INDEX `index_username_model_name` ON `logs`(`model_name`,`username`)');
    expect(statementsOf('sqlite', 'tokens')).toContain('CREATE UNIQUE INDEX `idx_tokens_key` ON `tokens`(`key`)');
  });
});
