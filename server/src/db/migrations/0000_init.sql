CREATE TYPE "public"."jurisdiction" AS ENUM('J5', 'J8');--> statement-breakpoint
CREATE TYPE "public"."line_of_business" AS ENUM('A', 'B');--> statement-breakpoint
CREATE TYPE "public"."location_role" AS ENUM('administrator', 'user');--> statement-breakpoint
CREATE TYPE "public"."location_status" AS ENUM('active', 'inactive');--> statement-breakpoint
CREATE TYPE "public"."audit_outcome" AS ENUM('success', 'failure');--> statement-breakpoint
CREATE TYPE "public"."user_status" AS ENUM('pending', 'active', 'locked', 'disabled_inactive', 'disabled_admin');--> statement-breakpoint
CREATE TABLE "app_state" (
	"key" varchar(64) PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor" text,
	"action" varchar(64) NOT NULL,
	"target" text,
	"outcome" "audit_outcome" NOT NULL,
	"ip" varchar(45),
	"request_id" varchar(64),
	"details" jsonb
);
--> statement-breakpoint
CREATE TABLE "claims" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"location_id" uuid NOT NULL,
	"claim_number" varchar(23) NOT NULL,
	"patient_mbi" varchar(11) NOT NULL,
	"date_of_service" date NOT NULL,
	"paid_amount" numeric(12, 2) NOT NULL,
	"paid_date" date NOT NULL,
	"check_number" varchar(20) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"recipient" varchar(254) NOT NULL,
	"template" varchar(64) NOT NULL,
	"data" jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "provider_locations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"npi" varchar(10) NOT NULL,
	"ptan" varchar(10) NOT NULL,
	"tin" varchar(9) NOT NULL,
	"legal_name" text NOT NULL,
	"jurisdiction" "jurisdiction" NOT NULL,
	"line_of_business" "line_of_business" NOT NULL,
	"state" varchar(2) NOT NULL,
	"address_line1" text NOT NULL,
	"city" text NOT NULL,
	"zip" varchar(10) NOT NULL,
	"status" "location_status" DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id_hash" varchar(64) PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ip" varchar(45),
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "user_locations" (
	"user_id" uuid NOT NULL,
	"location_id" uuid NOT NULL,
	"role" "location_role" NOT NULL,
	"status" varchar(16) DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_locations_user_id_location_id_pk" PRIMARY KEY("user_id","location_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"username" varchar(64) NOT NULL,
	"email" varchar(254) NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"phone" varchar(20),
	"dob" date NOT NULL,
	"password_hash" text NOT NULL,
	"status" "user_status" DEFAULT 'pending' NOT NULL,
	"is_internal" boolean DEFAULT false NOT NULL,
	"totp_secret_encrypted" text,
	"failed_login_count" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"last_login_at" timestamp with time zone,
	"password_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_location_id_provider_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."provider_locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_locations" ADD CONSTRAINT "user_locations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_locations" ADD CONSTRAINT "user_locations_location_id_provider_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."provider_locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_at_idx" ON "audit_events" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_events_actor_idx" ON "audit_events" USING btree ("actor");--> statement-breakpoint
CREATE UNIQUE INDEX "claims_claim_number_key" ON "claims" USING btree ("claim_number");--> statement-breakpoint
CREATE INDEX "claims_location_paid_idx" ON "claims" USING btree ("location_id","paid_date");--> statement-breakpoint
CREATE INDEX "claims_check_number_idx" ON "claims" USING btree ("check_number");--> statement-breakpoint
CREATE INDEX "outbox_unsent_idx" ON "outbox" USING btree ("created_at") WHERE "outbox"."sent_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "provider_locations_npi_ptan_lob_key" ON "provider_locations" USING btree ("npi","ptan","line_of_business");--> statement-breakpoint
CREATE INDEX "provider_locations_npi_idx" ON "provider_locations" USING btree ("npi");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "user_locations_location_idx" ON "user_locations" USING btree ("location_id","role");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_lower_key" ON "users" USING btree (lower("username"));--> statement-breakpoint
CREATE INDEX "users_email_lower_idx" ON "users" USING btree (lower("email"));