import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { jobState } from './migrations/0010-job-state.ts';
import { logHourly } from './migrations/0011-log-hourly.ts';
import { logHourlyChannelGroup } from './migrations/0015-log-hourly-channel-group.ts';
import { quotaJournal } from './migrations/0016-quota-journal.ts';
import { twoFactor, twoFactorBackupCodes } from './migrations/0017-two-factor.ts';
import { prefillGroups } from './migrations/0022-prefill-groups.ts';
import { logHourlyChannelLatency } from './migrations/0023-log-hourly-channel-latency.ts';
import { logPayloads } from './migrations/0025-payload-logs.ts';
import { passkeyCredentials } from './migrations/0026-passkeys.ts';
import { models, vendors } from './migrations/0027-model-catalogue.ts';
import { logHourlyChannelLatencyMs } from './migrations/0028-log-hourly-channel-latency-ms.ts';
import { logHourlyGroup, logHourlyType } from './migrations/0033-log-hourly-type-and-group.ts';
import { logDailyUserToken } from './migrations/0036-log-daily-user.ts';
import { logDailyUserModel } from './migrations/0037-log-daily-user-model.ts';
import { moveOver, oneApiChannels } from './move-over/move-over-tables.ts';
import { type ColumnDefinition, type ColumnType, logTables, mainTables, sessions, type TableDefinition } from './table-definitions.ts';

/**
 * The tables migrations create (table-definitions.ts and the migrations' own definitions) and the row
 * types Kysely checks queries against (schema.ts, log-schema.ts) are written apart; nothing else ties
 * them. A column missing from one, or typed or nullable differently, compiles and fails only at run time.
 */
const definitions: readonly TableDefinition[] = [
  ...mainTables,
  ...logTables,
  sessions,
  jobState,
  logHourly,
  logHourlyChannelGroup,
  quotaJournal,
  twoFactor,
  twoFactorBackupCodes,
  prefillGroups,
  logHourlyChannelLatency,
  logPayloads,
  passkeyCredentials,
  models,
  vendors,
  logHourlyChannelLatencyMs,
  logHourlyType,
  logHourlyGroup,
  logDailyUserToken,
  logDailyUserModel,
  moveOver,
  oneApiChannels,
];

/** What a row type's select or insert type may hold, as far as the database is concerned. */
type Kind = 'number' | 'string' | 'boolean' | 'Date' | 'null' | 'undefined';

interface RowColumn {
  readonly select: ReadonlySet<Kind>;
  readonly insert: ReadonlySet<Kind>;
}

/** The values a read of a column type gives (booleans are 0/1 on MySQL and SQLite; GORM datetimes may come back as text). */
function expectedSelectKinds(type: ColumnType): readonly Kind[] {
  switch (type) {
    case 'id':
    case 'bigint':
    case 'int':
    case 'double':
      return ['number'];
    case 'boolean':
      return ['boolean', 'number'];
    case 'timestamp':
      return ['Date', 'string'];
    default:
      // text and varchar(n)
      return ['string'];
  }
}

function kindsOf(type: ts.Type, checker: ts.TypeChecker, where: string): Set<Kind> {
  const kinds = new Set<Kind>();
  for (const member of type.isUnion() ? type.types : [type]) {
    if (member.flags & ts.TypeFlags.Null) kinds.add('null');
    else if (member.flags & ts.TypeFlags.Undefined) kinds.add('undefined');
    else if (member.flags & ts.TypeFlags.NumberLike) kinds.add('number');
    else if (member.flags & ts.TypeFlags.StringLike) kinds.add('string');
    else if (member.flags & ts.TypeFlags.BooleanLike) kinds.add('boolean');
    else if (member.getSymbol()?.getName() === 'Date') kinds.add('Date');
    else throw new Error(`${where}: no database value is a ${checker.typeToString(member)}`);
  }
  return kinds;
}

/** `Database` of schema.ts as table → column → the kinds of its select and insert types (Kysely's `ColumnType` or a plain type). */
function rowTypes(): Map<string, Map<string, RowColumn>> {
  const schemaFile = fileURLToPath(new URL('./schema.ts', import.meta.url));
  const program = ts.createProgram([schemaFile], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    allowImportingTsExtensions: true,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(schemaFile);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  const databaseSymbol = moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((symbol) => symbol.getName() === 'Database');
  if (!databaseSymbol) throw new Error('schema.ts exports no Database');
  const tables = new Map<string, Map<string, RowColumn>>();
  for (const table of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(databaseSymbol))) {
    const columns = new Map<string, RowColumn>();
    for (const column of checker.getPropertiesOfType(checker.getTypeOfSymbol(table))) {
      const where = `${table.getName()}.${column.getName()}`;
      const type = checker.getTypeOfSymbol(column);
      const part = (name: string) => {
        const property = checker.getPropertyOfType(type, name);
        return property ? checker.getTypeOfSymbol(property) : type;
      };
      columns.set(column.getName(), { select: kindsOf(part('__select__'), checker, where), insert: kindsOf(part('__insert__'), checker, where) });
    }
    tables.set(table.getName(), columns);
  }
  return tables;
}

/** Why a row type's column does not fit the column migrations create, or undefined when it does. */
function disagreement(column: ColumnDefinition, row: RowColumn): string | undefined {
  const values: Kind[] = [...row.select].filter((kind) => kind !== 'null');
  const expected = expectedSelectKinds(column.type);
  if (values.length !== expected.length || !expected.every((kind) => values.includes(kind)))
    return `reads ${values.join(' | ')} where a ${column.type} column gives ${expected.join(' | ')}`;
  const canBeNull = column.type !== 'id' && !column.notNull;
  if (row.select.has('null') && !canBeNull) return `reads null from a column that cannot hold it`;
  const omittable = row.insert.has('undefined') || row.insert.has('null');
  const filledIn = column.type === 'id' || column.defaultValue !== undefined || row.select.has('null');
  if (omittable && !filledIn) return `may be left out of an insert, but the column has no default and its reads say never null`;
  return undefined;
}

describe('table definitions and row types', () => {
  const rows = rowTypes();

  it('name the same tables', () => {
    expect([...rows.keys()].sort()).toEqual(definitions.map((table) => table.name).sort());
  });

  it('name the same columns in each table', () => {
    const differences = definitions.flatMap((table) => {
      const defined = table.columns.map((column) => column.name).sort();
      const typed = [...(rows.get(table.name)?.keys() ?? [])].sort();
      return defined.join() === typed.join() ? [] : [{ table: table.name, defined, typed }];
    });
    expect(differences).toEqual([]);
  });

  it('give each column a type and nullability its definition can hold', () => {
    const problems = definitions.flatMap((table) =>
      table.columns.flatMap((column) => {
        const row = rows.get(table.name)?.get(column.name);
        const problem = row && disagreement(column, row);
        return problem ? [`${table.name}.${column.name} ${problem}`] : [];
      }),
    );
    expect(problems).toEqual([]);
  });

  it('index only columns of their table, with names PostgreSQL keeps whole (63 characters; MySQL refuses more than 64)', () => {
    // PostgreSQL cuts a longer name silently: the next migration looks for the whole name, finds none
    // and fails creating the index again.
    const problems = definitions.flatMap((table) =>
      table.indexes.flatMap((index) => [
        ...(index.name.length > 63 ? [`${index.name} is ${index.name.length} characters`] : []),
        ...[...index.columns, ...(index.include ?? [])]
          .filter((column) => !table.columns.some((defined) => defined.name === column))
          .map((column) => `${index.name} names ${table.name}.${column}, which is not defined`),
      ]),
    );
    expect(problems).toEqual([]);
  });
});
