CREATE TYPE "public"."dde_access_type" AS ENUM('inquiry', 'inquiry-and-claims');--> statement-breakpoint
CREATE TYPE "public"."dde_request_type" AS ENUM('new', 'change', 'remove');--> statement-breakpoint
CREATE TYPE "public"."edi_enrollment_status" AS ENUM('active', 'pending', 'inactive');--> statement-breakpoint
CREATE SEQUENCE "public"."dde_request_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "dde_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference_number" varchar(32) NOT NULL,
	"requester_id" uuid NOT NULL,
	"location_id" uuid NOT NULL,
	"idempotency_key" uuid NOT NULL,
	"request_hash" varchar(64) NOT NULL,
	"request_type" "dde_request_type" NOT NULL,
	"body" jsonb NOT NULL,
	"status" varchar(16) DEFAULT 'received' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "edi_enrollments" (
	"location_id" uuid PRIMARY KEY NOT NULL,
	"submitter_id" varchar(15) NOT NULL,
	"network_service_vendor" text NOT NULL,
	"dde_access_type" "dde_access_type" NOT NULL,
	"status" "edi_enrollment_status" NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dde_requests" ADD CONSTRAINT "dde_requests_requester_id_users_id_fk" FOREIGN KEY ("requester_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dde_requests" ADD CONSTRAINT "dde_requests_location_id_provider_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."provider_locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "edi_enrollments" ADD CONSTRAINT "edi_enrollments_location_id_provider_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."provider_locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dde_requests_reference_key" ON "dde_requests" USING btree ("reference_number");--> statement-breakpoint
CREATE UNIQUE INDEX "dde_requests_idempotency_key" ON "dde_requests" USING btree ("requester_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "dde_requests_location_idx" ON "dde_requests" USING btree ("location_id");