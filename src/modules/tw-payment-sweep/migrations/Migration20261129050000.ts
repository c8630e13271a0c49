import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261129050000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table if not exists "tw_order_placement" ("id" text not null, "order_id" text not null, "provider_key" text not null, "path" text check ("path" in ('return', 'delivery', 'reconciliation')) not null, "awaiting" boolean not null default false, "paid_at" timestamptz null, "placed_at" timestamptz not null, "seconds" integer null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "tw_order_placement_pkey" primary key ("id"));`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_tw_order_placement_order_id_unique" ON "tw_order_placement" ("order_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_tw_order_placement_placed_at" ON "tw_order_placement" ("placed_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_tw_order_placement_deleted_at" ON "tw_order_placement" ("deleted_at") WHERE deleted_at IS NULL;`);

    this.addSql(`create table if not exists "tw_health_tally" ("id" text not null, "minute" timestamptz not null, "provider_key" text not null, "figure" text not null, "key" text not null, "count" integer not null default 0, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "tw_health_tally_pkey" primary key ("id"));`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_tw_health_tally_minute_provider_key_figure_key_unique" ON "tw_health_tally" ("minute", "provider_key", "figure", "key");`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_tw_health_tally_deleted_at" ON "tw_health_tally" ("deleted_at") WHERE deleted_at IS NULL;`);

    this.addSql(`create table if not exists "tw_health_warning" ("id" text not null, "started_at" timestamptz not null, "cleared_at" timestamptz null, "figure" integer not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "tw_health_warning_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_tw_health_warning_deleted_at" ON "tw_health_warning" ("deleted_at") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "tw_order_placement" cascade;`);
    this.addSql(`drop table if exists "tw_health_tally" cascade;`);
    this.addSql(`drop table if exists "tw_health_warning" cascade;`);
  }

}
