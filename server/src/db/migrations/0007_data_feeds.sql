CREATE TYPE "public"."import_kind" AS ENUM('provider-enrollment', 'paid-claims', 'edi-enrollments');--> statement-breakpoint
CREATE TYPE "public"."import_mode" AS ENUM('snapshot', 'delta');--> statement-breakpoint
CREATE TYPE "public"."import_outcome" AS ENUM('running', 'succeeded', 'refused', 'failed', 'dry-run', 'interrupted');--> statement-breakpoint
CREATE TABLE "import_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" "import_kind" NOT NULL,
	"mode" "import_mode" NOT NULL,
	"file_name" text NOT NULL,
	"sha256" varchar(64) NOT NULL,
	"format" varchar(8) DEFAULT 'csv' NOT NULL,
	"rows_read" integer DEFAULT 0 NOT NULL,
	"rows_inserted" integer DEFAULT 0 NOT NULL,
	"rows_updated" integer DEFAULT 0 NOT NULL,
	"rows_end_dated" integer DEFAULT 0 NOT NULL,
	"rows_rejected" integer DEFAULT 0 NOT NULL,
	"outcome" "import_outcome" DEFAULT 'running' NOT NULL,
	"message" text,
	"forced" boolean DEFAULT false NOT NULL,
	"started_by" varchar(16) NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "import_run_id" bigint;--> statement-breakpoint
ALTER TABLE "edi_enrollments" ADD COLUMN "end_date" date;--> statement-breakpoint
ALTER TABLE "edi_enrollments" ADD COLUMN "import_run_id" bigint;--> statement-breakpoint
ALTER TABLE "provider_locations" ADD COLUMN "pecos_asct_cntl_id" varchar(10);--> statement-breakpoint
ALTER TABLE "provider_locations" ADD COLUMN "enrollment_id" varchar(15);--> statement-breakpoint
ALTER TABLE "provider_locations" ADD COLUMN "provider_type_code" varchar(10);--> statement-breakpoint
ALTER TABLE "provider_locations" ADD COLUMN "effective_date" date;--> statement-breakpoint
ALTER TABLE "provider_locations" ADD COLUMN "end_date" date;--> statement-breakpoint
ALTER TABLE "provider_locations" ADD COLUMN "import_run_id" bigint;--> statement-breakpoint
CREATE INDEX "import_runs_kind_sha256_idx" ON "import_runs" USING btree ("kind","sha256");--> statement-breakpoint
CREATE INDEX "import_runs_started_idx" ON "import_runs" USING btree ("started_at");