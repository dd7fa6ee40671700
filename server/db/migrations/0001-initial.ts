import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../connection';
import { columnTypes } from './column-types';

/**
 * Initial schema (issue "Foundation"): companies, locals, roles and permissions, staff users,
 * customers, access tokens, password resets and the e-mail outbox.
 */
export function initialMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    // Migrations run on any schema, so they take an untyped Kysely.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('companies')
        .addColumn('id', 'integer', t.id)
        .addColumn('business_name', 'text', (c) => c.notNull())
        .addColumn('ruc', 'text', (c) => c.notNull().unique())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('phone', 'text')
        .addColumn('email', 'text')
        .addColumn('subscription_active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addCheckConstraint('companies_subscription_active_flag', sql`subscription_active in (0, 1)`)
        .execute();

      await db.schema
        .createTable('locals')
        .addColumn('id', 'integer', t.id)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addCheckConstraint('locals_active_flag', sql`active in (0, 1)`)
        .execute();
      await db.schema.createIndex('locals_company_id_idx').on('locals').column('company_id').execute();
      await db.schema.createIndex('locals_active_name_idx').on('locals').columns(['active', 'name']).execute();

      await db.schema
        .createTable('roles')
        .addColumn('id', 'integer', t.id)
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .execute();

      await db.schema
        .createTable('role_permissions')
        .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
        .addColumn('permission', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('role_permissions_pk', ['role_id', 'permission'])
        .execute();

      await db.schema
        .createTable('users')
        .addColumn('id', 'integer', t.id)
        .addColumn('dni', 'text', (c) => c.notNull().unique())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('surname', 'text', (c) => c.notNull())
        .addColumn('phone', 'text')
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('ACTIVO'))
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('system_styles', 'text')
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addColumn('updated_at', t.instant, (c) => c.notNull())
        .addCheckConstraint('users_status_check', sql`status in ('ACTIVO', 'INACTIVO')`)
        .execute();
      await db.schema
        .createIndex('users_email_lower_uq')
        .on('users')
        .unique()
        .expression(sql`lower(email)`)
        .execute();

      await db.schema
        .createTable('user_roles')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('user_roles_pk', ['user_id', 'role_id'])
        .execute();
      await db.schema.createIndex('user_roles_role_id_idx').on('user_roles').column('role_id').execute();

      await db.schema
        .createTable('customers')
        .addColumn('id', 'integer', t.id)
        .addColumn('id_document_type', 'text', (c) => c.notNull())
        .addColumn('document_number', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('surname', 'text', (c) => c.notNull())
        .addColumn('birthday_date', t.date, (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('phone', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('ACTIVO'))
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('system_styles', 'text')
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addColumn('updated_at', t.instant, (c) => c.notNull())
        .addCheckConstraint('customers_status_check', sql`status in ('ACTIVO', 'INACTIVO')`)
        .execute();
      await db.schema
        .createIndex('customers_email_lower_uq')
        .on('customers')
        .unique()
        .expression(sql`lower(email)`)
        .execute();

      await db.schema
        .createTable('access_tokens')
        .addColumn('id', 'integer', t.id)
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('user_type', 'text', (c) => c.notNull())
        .addColumn('account_id', 'integer', (c) => c.notNull())
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addColumn('last_used_at', t.instant, (c) => c.notNull())
        .addColumn('expires_at', t.instant, (c) => c.notNull())
        .addColumn('revoked_at', t.instant)
        .addCheckConstraint('access_tokens_user_type_check', sql`user_type in ('COLLABORATOR', 'CUSTOMER')`)
        .execute();
      await db.schema.createIndex('access_tokens_account_idx').on('access_tokens').columns(['user_type', 'account_id']).execute();

      await db.schema
        .createTable('password_resets')
        .addColumn('id', 'integer', t.id)
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('user_type', 'text', (c) => c.notNull())
        .addColumn('account_id', 'integer', (c) => c.notNull())
        .addColumn('expires_at', t.instant, (c) => c.notNull())
        .addColumn('used_at', t.instant)
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addCheckConstraint('password_resets_user_type_check', sql`user_type in ('COLLABORATOR', 'CUSTOMER')`)
        .execute();
      await db.schema.createIndex('password_resets_account_idx').on('password_resets').columns(['user_type', 'account_id']).execute();

      await db.schema
        .createTable('outbox')
        .addColumn('id', 'integer', t.id)
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('link', 'text')
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .execute();
    },

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      for (const table of [
        'outbox',
        'password_resets',
        'access_tokens',
        'customers',
        'user_roles',
        'users',
        'role_permissions',
        'roles',
        'locals',
        'companies',
      ]) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  };
}
