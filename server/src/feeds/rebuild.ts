import type { QueryFn } from '../db/client';

/**
 * A large load into a table rebuilt and swapped in (docs/decisions/0089-import-rebuild-and-parse.md). Inserting a
 * million rows into `claims` row by row maintains four indexes and checks the foreign key per row (EXPLAIN: the
 * insert of 200,000 rows 6.0 s, the foreign key's trigger 1.5 s of it); filling an index-less copy, then building each
 * index by one sort and checking the foreign key by one join, does the same work in about a third of the time.
 *
 * `fill` writes the new table's rows (it reads the old table, which stays readable and locked against writers);
 * the indexes and constraints are then built with temporary names, copied from the catalog (so the migrations stay
 * the one definition of the table), and the new table takes the old one's place, with its names, in one short
 * exclusive lock at the end of the caller's transaction. Readers wait only for that rename.
 */
export async function rebuildTable(
  q: QueryFn,
  table: string,
  fill: (newTable: string) => Promise<void>,
): Promise<void> {
  const next = `${table}_rebuilt`;
  // Writers (the retention purge) wait for the commit; readers (authority validation) go on.
  await q(`lock table ${table} in share mode`);
  const constraints = (
    await q<{ name: string; def: string }>(
      `select conname as name, pg_get_constraintdef(oid) as def from pg_constraint
       where conrelid = $1::regclass and contype in ('p', 'u', 'f', 'c', 'x') order by contype = 'f', conname`,
      [table],
    )
  ).rows;
  // Indexes that back no constraint (a constraint brings its own).
  const indexes = (
    await q<{ name: string; def: string }>(
      `select i.relname as name, pg_get_indexdef(i.oid) as def from pg_index x join pg_class i on i.oid = x.indexrelid
       where x.indrelid = $1::regclass and not exists (select 1 from pg_constraint c where c.conindid = i.oid)
       order by i.relname`,
      [table],
    )
  ).rows;
  await q(`drop table if exists ${next}`);
  await q(`create table ${next} (like ${table} including all excluding indexes excluding constraints)`);
  await fill(next);
  const temporary = (i: number) => `${next}_${i}`;
  // Keys and unique indexes first (built by one sort each), the foreign keys last (one validating join each).
  for (const [i, c] of constraints.filter((c) => !c.def.startsWith('FOREIGN KEY')).entries())
    await q(`alter table ${next} add constraint ${temporary(i)} ${c.def}`);
  for (const [i, index] of indexes.entries()) {
    const def = index.def.replace(
      /^(CREATE (?:UNIQUE )?INDEX )(\S+)( ON (?:ONLY )?)(?:(\S+)\.)?(\S+)( )/,
      (_m, create: string, _name: string, on: string, schema: string | undefined, _t: string, space: string) =>
        `${create}${temporary(constraints.length + i)}${on}${schema ? `${schema}.` : ''}${next}${space}`,
    );
    if (!def.includes(`${next} USING `))
      throw new Error(`cannot rebuild ${table}: unexpected index definition ${index.def}`);
    await q(def);
  }
  for (const [i, c] of constraints.entries())
    if (c.def.startsWith('FOREIGN KEY')) await q(`alter table ${next} add constraint ${temporary(i)} ${c.def}`);
  await q(`analyze ${next}`);
  // The swap: catalog changes only, under an exclusive lock held until the commit.
  await q(`lock table ${table} in access exclusive mode`);
  await q(`drop table ${table}`);
  await q(`alter table ${next} rename to ${table}`);
  for (const [i, c] of constraints.entries())
    await q(`alter table ${table} rename constraint ${temporary(i)} to ${quoteIdent(c.name)}`);
  for (const [i, index] of indexes.entries())
    await q(`alter index ${temporary(constraints.length + i)} rename to ${quoteIdent(index.name)}`);
}

/**
 * Whether the table can be rebuilt without losing anything the copy would not carry: no trigger, rule, policy or
 * grant of its own, no sequence it owns (a serial or identity column: the copy's default would draw from the old
 * table's sequence, dropped with it, or from a new one starting again), no view or foreign key pointing at it.
 * Otherwise the caller merges row by row.
 */
export async function rebuildable(q: QueryFn, table: string): Promise<boolean> {
  const { rows } = await q<{ ok: boolean }>(
    `select c.relacl is null and not c.relrowsecurity
       and not exists (select 1 from pg_trigger t where t.tgrelid = c.oid and not t.tgisinternal)
       and not exists (select 1 from pg_rewrite r where r.ev_class = c.oid)
       and not exists (select 1 from pg_policy p where p.polrelid = c.oid)
       and not exists (select 1 from pg_constraint f where f.confrelid = c.oid)
       and not exists (select 1 from pg_depend d join pg_rewrite r on r.oid = d.objid
                       where d.classid = 'pg_rewrite'::regclass and d.refobjid = c.oid)
       and not exists (select 1 from pg_depend d join pg_class s on s.oid = d.objid and s.relkind = 'S'
                       where d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass
                         and d.refobjid = c.oid and d.deptype in ('a', 'i')) as ok
     from pg_class c where c.oid = $1::regclass`,
    [table],
  );
  return rows[0]?.ok === true;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
