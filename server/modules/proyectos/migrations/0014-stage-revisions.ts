import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../../../db/connection';

/**
 * Stages in the subdivision revision (issue "API throughput": the lot pages are now kept per
 * revision, server/platform/revision-texts.ts, and each lot on them shows its stage's name). Every
 * update or delete of a stage adds 1 to its subdivision's revision (`subdivision_revisions`,
 * migration 0013), whichever code path writes; a new stage has no block yet, so it changes no page.
 * On PostgreSQL the trigger reuses migration 0013's function (stages carry `subdivision_id` like
 * lots and blocks); in a subdivision's cascading deletion the update finds no row and does nothing.
 */
export function stageRevisionsMigration(dialect: DialectName): Migration {
  const postgres = dialect === 'postgres';
  const bump = (id: string) => `update subdivision_revisions set revision = revision + 1 where subdivision_id = ${id}`;
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      if (postgres) {
        await sql
          .raw(`create trigger stages_revision after update or delete on stages for each row execute function subdivision_revision_bump()`)
          .execute(db);
        return;
      }
      await sql.raw(`create trigger stages_revision_update after update on stages begin ${bump('old.subdivision_id')}; end`).execute(db);
      await sql.raw(`create trigger stages_revision_delete after delete on stages begin ${bump('old.subdivision_id')}; end`).execute(db);
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      if (postgres) {
        await sql`drop trigger stages_revision on stages`.execute(db);
        return;
      }
      await sql`drop trigger stages_revision_update`.execute(db);
      await sql`drop trigger stages_revision_delete`.execute(db);
    },
  };
}
