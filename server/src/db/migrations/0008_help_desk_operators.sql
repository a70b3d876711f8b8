CREATE TABLE "operators" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"name" text NOT NULL,
	"email" varchar(254) NOT NULL,
	"roles" jsonb NOT NULL,
	"last_sign_in_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops_sessions" (
	"id_hash" varchar(64) PRIMARY KEY NOT NULL,
	"operator_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	"access_token_encrypted" text,
	"refresh_token_encrypted" text,
	"id_token_encrypted" text
);
--> statement-breakpoint
ALTER TABLE "ops_sessions" ADD CONSTRAINT "ops_sessions_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "operators_issuer_subject_key" ON "operators" USING btree ("issuer","subject");--> statement-breakpoint
CREATE INDEX "ops_sessions_operator_idx" ON "ops_sessions" USING btree ("operator_id");--> statement-breakpoint
CREATE INDEX "ops_sessions_expires_idx" ON "ops_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "provider_locations_ptan_idx" ON "provider_locations" USING btree (upper("ptan"));--> statement-breakpoint
CREATE INDEX "users_username_prefix_idx" ON "users" USING btree (lower("username") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_email_prefix_idx" ON "users" USING btree (lower("email") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_last_name_prefix_idx" ON "users" USING btree (lower("last_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_first_name_prefix_idx" ON "users" USING btree (lower("first_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_full_name_prefix_idx" ON "users" USING btree (lower("first_name" || ' ' || "last_name") text_pattern_ops);--> statement-breakpoint
-- Contractor staff no longer hold portal passwords (docs/requirements/help-desk.md): they are operators from the
-- enterprise directory. The internal accounts (the demo's `demo.internal`) and their sessions go.
DELETE FROM "users" WHERE "is_internal";
