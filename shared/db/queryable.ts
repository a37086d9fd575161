import type { EntityManager } from "typeorm";

/** Runs SQL with parameters: a DataSource, or the EntityManager of an open transaction. */
export type Queryable = Pick<EntityManager, "query">;

/** TypeORM answers UPDATE/DELETE … RETURNING with `[rows, count]` and other statements with rows. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as T[];
}
