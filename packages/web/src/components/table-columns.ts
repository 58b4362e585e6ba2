import type { ColumnType } from 'antd/es/table';
import type { ReactNode } from 'react';

/**
 * A column showing one field of the row. antd's own `dataIndex` takes any string; here the field must
 * be one the row type has and `render` receives that field's type, so a field renamed in the shared
 * contracts breaks the column's type check instead of leaving it empty.
 */
type FieldColumn<Row> = {
  [Field in keyof Row & string]: Omit<ColumnType<Row>, 'dataIndex' | 'render'> & {
    dataIndex: Field;
    render?: (value: Row[Field], row: Row, index: number) => ReactNode;
  };
}[keyof Row & string];

/** A column computed from the whole row (actions, combined cells): no `dataIndex`. */
type RowColumn<Row> = Omit<ColumnType<Row>, 'dataIndex'> & { dataIndex?: never };

/** The columns of a table over a contract row type (see FieldColumn). */
export type TypedColumns<Row> = Array<FieldColumn<Row> | RowColumn<Row>>;
