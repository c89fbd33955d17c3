/**
 * Column definitions as pkg/printers/internalversion declares them: a column is a name, a type, a
 * description (mostly an API field's Swagger doc) and a priority (1: shown by `kubectl get -o
 * wide` only). Every built-in printer starts with Name and most end with Age.
 */
import { creationTimestampDescription, nameDescription, type ColumnDefinition, type TableConvertor } from '../convert.ts';
import { swaggerDoc, type DocKey } from './descriptions.ts';

type Obj = Record<string, unknown>;

/** One column; `description` is a Swagger doc key or a literal text. */
export function col(name: string, type: string, description: DocKey | string, priority = 0, format = ''): ColumnDefinition {
  const text = description in swaggerDoc ? swaggerDoc[description as DocKey] : description;
  return { name, type, format, description: text, priority };
}

/** A column shown only with `-o wide`. */
export function wide(name: string, type: string, description: DocKey | string): ColumnDefinition {
  return col(name, type, description, 1);
}

export const nameColumn: ColumnDefinition = { name: 'Name', type: 'string', format: 'name', description: nameDescription, priority: 0 };
export const ageColumn: ColumnDefinition = { name: 'Age', type: 'string', format: '', description: creationTimestampDescription, priority: 0 };

export const containersColumn = wide('Containers', 'string', 'Names of each container in the template.');
export const imagesColumn = wide('Images', 'string', 'Images referenced by each container in the template.');

/** A printer: its columns and the function computing one object's cells (always the wide set, as the server prints). */
export function printer(columns: ColumnDefinition[], cells: (obj: Obj, now: number) => unknown[], extra?: Partial<TableConvertor>): TableConvertor {
  return { columns, cells, ...extra };
}
