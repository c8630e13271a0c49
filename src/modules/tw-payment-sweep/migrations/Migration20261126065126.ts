import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261126065126 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table if not exists "tw_sweep_cursor" ("id" text not null, "state" jsonb not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "tw_sweep_cursor_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_tw_sweep_cursor_deleted_at" ON "tw_sweep_cursor" ("deleted_at") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "tw_sweep_cursor" cascade;`);
  }

}
