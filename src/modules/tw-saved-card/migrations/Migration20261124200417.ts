import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261124200417 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "tw_saved_card_charge" drop constraint if exists "tw_saved_card_charge_payment_session_id_unique";`);
    this.addSql(`alter table if exists "tw_saved_card" drop constraint if exists "tw_saved_card_binding_id_unique";`);
    this.addSql(`create table if not exists "tw_saved_card" ("id" text not null, "customer_id" text not null, "provider_id" text not null, "status" text check ("status" in ('binding', 'active', 'failed', 'deleted')) not null default 'binding', "binding_id" text null, "binding_expires_at" timestamptz not null, "last4" text null, "card_label" text null, "token_ciphertext" text null, "token_key_id" text null, "bound_at" timestamptz null, "failure_reason" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "tw_saved_card_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_tw_saved_card_customer_id" ON "tw_saved_card" ("customer_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_tw_saved_card_deleted_at" ON "tw_saved_card" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_tw_saved_card_binding_id_unique" ON "tw_saved_card" ("binding_id") WHERE binding_id IS NOT NULL AND deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_tw_saved_card_token_key_id" ON "tw_saved_card" ("token_key_id") WHERE token_key_id IS NOT NULL AND deleted_at IS NULL;`);

    this.addSql(`create table if not exists "tw_saved_card_charge" ("id" text not null, "payment_session_id" text not null, "saved_card_id" text not null, "service_order_id" text not null, "status" text check ("status" in ('charging', 'paid', 'declined', 'unknown')) not null default 'charging', "transaction_id" text null, "amount" integer not null, "code" text null, "message" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "tw_saved_card_charge_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_tw_saved_card_charge_saved_card_id" ON "tw_saved_card_charge" ("saved_card_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_tw_saved_card_charge_deleted_at" ON "tw_saved_card_charge" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_tw_saved_card_charge_payment_session_id_unique" ON "tw_saved_card_charge" ("payment_session_id") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "tw_saved_card" cascade;`);

    this.addSql(`drop table if exists "tw_saved_card_charge" cascade;`);
  }

}
