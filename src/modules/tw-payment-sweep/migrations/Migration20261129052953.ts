import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261129052953 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table if not exists "tw_delivery_marker" ("id" text not null, "expires_at" timestamptz not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "tw_delivery_marker_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_tw_delivery_marker_deleted_at" ON "tw_delivery_marker" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_tw_delivery_marker_expires_at" ON "tw_delivery_marker" ("expires_at") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "tw_delivery_marker" cascade;`);
  }

}
