import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261123220454 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "tw_subscription_period" drop constraint if exists "tw_subscription_period_subscription_id_period_unique";`);
    this.addSql(`alter table if exists "tw_subscription" drop constraint if exists "tw_subscription_payment_session_id_unique";`);
    this.addSql(`alter table if exists "tw_subscription" drop constraint if exists "tw_subscription_service_subscription_id_unique";`);
    this.addSql(`create table if not exists "tw_subscription" ("id" text not null, "status" text check ("status" in ('pending', 'pending_first_charge', 'active', 'retrying', 'stopped', 'completed', 'cancelled')) not null default 'pending', "customer_id" text not null, "plan_id" text null, "provider_key" text not null, "cart_id" text not null, "payment_session_id" text null, "service_subscription_id" text null, "kind" text check ("kind" in ('monthly', 'scheduled')) not null, "interval_months" integer not null, "amount" integer not null, "currency_code" text not null default 'twd', "periods_total" integer null, "periods_charged" integer not null default 0, "start_date" text null, "next_charge_at" timestamptz null, "card_last4" text null, "first_order_id" text null, "cancel_reason" text null, "cancelled_at" timestamptz null, "synced_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "tw_subscription_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_tw_subscription_customer_id" ON "tw_subscription" ("customer_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_tw_subscription_cart_id" ON "tw_subscription" ("cart_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_tw_subscription_deleted_at" ON "tw_subscription" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_tw_subscription_service_subscription_id_unique" ON "tw_subscription" ("service_subscription_id") WHERE service_subscription_id IS NOT NULL AND deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_tw_subscription_payment_session_id_unique" ON "tw_subscription" ("payment_session_id") WHERE payment_session_id IS NOT NULL AND deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_tw_subscription_status" ON "tw_subscription" ("status") WHERE deleted_at IS NULL;`);

    this.addSql(`create table if not exists "tw_subscription_period" ("id" text not null, "period" integer not null, "status" text check ("status" in ('paid', 'retrying', 'failed')) not null, "transaction_id" text null, "transaction_hid" text null, "amount" integer not null, "attempts" integer not null default 1, "paid_at" timestamptz null, "order_id" text null, "order_paid" boolean not null default false, "subscription_id" text not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "tw_subscription_period_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_tw_subscription_period_subscription_id" ON "tw_subscription_period" ("subscription_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_tw_subscription_period_deleted_at" ON "tw_subscription_period" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_tw_subscription_period_subscription_id_period_unique" ON "tw_subscription_period" ("subscription_id", "period") WHERE deleted_at IS NULL;`);

    this.addSql(`create table if not exists "tw_subscription_plan" ("id" text not null, "variant_id" text not null, "title" text not null, "kind" text check ("kind" in ('monthly', 'scheduled')) not null, "interval_months" integer not null default 1, "periods" integer null, "first_charge_delay_days" integer not null default 0, "active" boolean not null default true, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "tw_subscription_plan_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_tw_subscription_plan_variant_id" ON "tw_subscription_plan" ("variant_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_tw_subscription_plan_deleted_at" ON "tw_subscription_plan" ("deleted_at") WHERE deleted_at IS NULL;`);

    this.addSql(`alter table if exists "tw_subscription_period" add constraint "tw_subscription_period_subscription_id_foreign" foreign key ("subscription_id") references "tw_subscription" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "tw_subscription_period" drop constraint if exists "tw_subscription_period_subscription_id_foreign";`);

    this.addSql(`drop table if exists "tw_subscription" cascade;`);

    this.addSql(`drop table if exists "tw_subscription_period" cascade;`);

    this.addSql(`drop table if exists "tw_subscription_plan" cascade;`);
  }

}
