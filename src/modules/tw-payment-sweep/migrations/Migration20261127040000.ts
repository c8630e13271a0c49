import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261127040000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table if not exists "tw_remittance_due" ("id" text not null, "provider_key" text not null, "transaction_id" text not null, "transaction_hid" text not null, "amount" integer not null, "payment_method" text not null, "session_id" text null, "reason" text not null, "refunded_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "tw_remittance_due_pkey" primary key ("id"));`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_tw_remittance_due_transaction_id_unique" ON "tw_remittance_due" ("transaction_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_tw_remittance_due_deleted_at" ON "tw_remittance_due" ("deleted_at") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "tw_remittance_due" cascade;`);
  }

}
