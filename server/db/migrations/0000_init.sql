CREATE TABLE "account_message_views" (
	"message_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"time_viewed" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_message_views_message_id_user_id_pk" PRIMARY KEY("message_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "account_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"time_created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"email" text NOT NULL,
	"user_id" integer,
	"token_hash" text NOT NULL,
	"referrer" text,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auth_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "pending_user_assignments" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"subscription_id" integer NOT NULL,
	"role_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "rate_limits_key_window_start_pk" PRIMARY KEY("key","window_start")
);
--> statement-breakpoint
CREATE TABLE "remembered_devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "remembered_devices_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "saml_configs" (
	"name" text PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL,
	"entry_point" text NOT NULL,
	"issuer" text NOT NULL,
	"idp_cert" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saml_seen" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"tier_name" text NOT NULL,
	"limits" jsonb NOT NULL,
	"features" jsonb NOT NULL,
	"supports_roles" boolean DEFAULT true NOT NULL,
	"advanced_roles" boolean DEFAULT false NOT NULL,
	"saml_config_name" text,
	"crm_org_id" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_assignments" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"subscription_id" integer NOT NULL,
	"role_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"password_hash" text,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"temperature_scale" text DEFAULT 'C' NOT NULL,
	"active_subscription_id" integer,
	"totp_secret" text,
	"totp_last_step" bigint,
	"email_verified_at" timestamp with time zone,
	"terms_accepted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "channel_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"sensor_id" integer NOT NULL,
	"channel_key" text NOT NULL,
	"group_type" integer NOT NULL,
	"group_index" integer NOT NULL,
	"label" text,
	"is_hidden" boolean DEFAULT false NOT NULL,
	"last_received_at" timestamp with time zone,
	CONSTRAINT "channel_groups_channel_key_unique" UNIQUE("channel_key")
);
--> statement-breakpoint
CREATE TABLE "channels" (
	"id" serial PRIMARY KEY NOT NULL,
	"channel_group_id" integer NOT NULL,
	"channel_key" text NOT NULL,
	"channel_type" integer NOT NULL,
	"channel_index" integer,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"value" double precision,
	"adjust" double precision DEFAULT 0 NOT NULL,
	"conversion_type" text,
	"units" text,
	CONSTRAINT "channels_channel_key_unique" UNIQUE("channel_key")
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL,
	"name" text NOT NULL,
	"location" text,
	"geocode" jsonb,
	"type" text NOT NULL,
	"device_type" text NOT NULL,
	"public_page_hash" text,
	"uptime" integer DEFAULT 0 NOT NULL,
	"push_status" integer DEFAULT 0 NOT NULL,
	"push_interval" integer DEFAULT 600 NOT NULL,
	"link_id" integer,
	"eth_ip" text,
	"wlan_ip" text,
	"wifi_name" text,
	"is_https" boolean DEFAULT false NOT NULL,
	"http_port" integer,
	"mac_address" text NOT NULL,
	"serialnumber" text NOT NULL,
	"firmware" text,
	"latest_firmware" text,
	"model" text,
	"image_url" text,
	"warranty_end_date" timestamp with time zone,
	"last_message_at" timestamp with time zone,
	"assignment_start_at" timestamp with time zone,
	"is_suspended" boolean DEFAULT false NOT NULL,
	"capacity_json" jsonb,
	"ingest_key_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "devices_public_page_hash_unique" UNIQUE("public_page_hash"),
	CONSTRAINT "devices_mac_address_unique" UNIQUE("mac_address")
);
--> statement-breakpoint
CREATE TABLE "entity_tags" (
	"tag_id" integer NOT NULL,
	"entity_type" integer NOT NULL,
	"entity_id" integer NOT NULL,
	CONSTRAINT "entity_tags_tag_id_entity_type_entity_id_pk" PRIMARY KEY("tag_id","entity_type","entity_id")
);
--> statement-breakpoint
CREATE TABLE "links" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "samples" (
	"channel_id" integer NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"value" double precision NOT NULL,
	CONSTRAINT "samples_channel_id_time_pk" PRIMARY KEY("channel_id","time")
);
--> statement-breakpoint
CREATE TABLE "sensors" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"mac_address" text NOT NULL,
	"kind" text NOT NULL,
	"sensor_type" text,
	"label" text,
	"is_hub" boolean DEFAULT false NOT NULL,
	"battery" integer,
	"plugged_in" boolean DEFAULT false NOT NULL,
	"battery_alert_triggered" boolean DEFAULT false NOT NULL,
	"signal" integer,
	"last_received_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL,
	"name" text NOT NULL,
	"type" text DEFAULT 'user-defined' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_channels" (
	"report_id" integer NOT NULL,
	"channel_id" integer NOT NULL,
	"color" text NOT NULL,
	"axis" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_channels_report_id_channel_id_pk" PRIMARY KEY("report_id","channel_id")
);
--> statement-breakpoint
CREATE TABLE "report_thresholds" (
	"report_id" integer NOT NULL,
	"threshold_range_id" integer NOT NULL,
	CONSTRAINT "report_thresholds_report_id_threshold_range_id_pk" PRIMARY KEY("report_id","threshold_range_id")
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL,
	"name" text NOT NULL,
	"public_hash" text,
	"time_interval" integer DEFAULT 0 NOT NULL,
	"start_date" timestamp with time zone,
	"end_date" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reports_public_hash_unique" UNIQUE("public_hash")
);
--> statement-breakpoint
CREATE TABLE "threshold_ranges" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL,
	"name" text NOT NULL,
	"channel_id" integer,
	"min_value" double precision,
	"max_value" double precision,
	"color" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "addresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer,
	"company_name" text,
	"contact_name" text,
	"attention" text,
	"line1" text,
	"line2" text,
	"city" text,
	"state" text,
	"zip_code" text,
	"country_id" integer,
	"phone_number" text
);
--> statement-breakpoint
CREATE TABLE "countries" (
	"id" integer PRIMARY KEY NOT NULL,
	"crm_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"abbreviation" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_line_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"product_number" text NOT NULL,
	"description" text NOT NULL,
	"quantity" integer NOT NULL,
	"discount" text,
	"list_price" bigint NOT NULL,
	"currency" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" integer PRIMARY KEY NOT NULL,
	"subscription_id" integer,
	"quote_id" integer,
	"validation_id" text NOT NULL,
	"product_family" text NOT NULL,
	"contact_name" text NOT NULL,
	"contact_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"shipping_timestamp" timestamp with time zone,
	"shipping_status" text NOT NULL,
	"po_number" text,
	"payment_status" text NOT NULL,
	"payment_type" text,
	"currency" integer DEFAULT 1 NOT NULL,
	"crm_org_id" integer DEFAULT 0 NOT NULL,
	"shipping_address_id" integer,
	"billing_address_id" integer,
	"tax" bigint DEFAULT 0 NOT NULL,
	"shipping_amount" bigint DEFAULT 0 NOT NULL,
	"ship_method" text,
	"ship_carrier" text,
	"referrer_code" text,
	CONSTRAINT "orders_validation_id_unique" UNIQUE("validation_id")
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"amount" bigint NOT NULL,
	"currency" integer DEFAULT 1 NOT NULL,
	"method" text NOT NULL,
	"card_brand" text,
	"card_last4" text,
	"po_number" text,
	"po_file_id" integer,
	"idempotency_key" text NOT NULL,
	"gateway_reference" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quote_line_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"quote_id" integer NOT NULL,
	"product_number" text NOT NULL,
	"description" text NOT NULL,
	"quantity" integer NOT NULL,
	"discount" text,
	"list_price" bigint NOT NULL,
	"currency" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quotes" (
	"id" integer PRIMARY KEY NOT NULL,
	"subscription_id" integer,
	"status" text NOT NULL,
	"product_family" text NOT NULL,
	"contact_name" text NOT NULL,
	"contact_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"currency" integer DEFAULT 1 NOT NULL,
	"crm_org_id" integer DEFAULT 0 NOT NULL,
	"needs_shipping" boolean DEFAULT true NOT NULL,
	"shipping_address_id" integer,
	"billing_address_id" integer,
	"specialist_name" text,
	"specialist_phone" text,
	"specialist_phone_extension" text,
	"shipping_cost" bigint DEFAULT 0 NOT NULL,
	"shipping_carrier" text,
	"shipping_method" text,
	"tax" bigint DEFAULT 0 NOT NULL,
	"public_token" text NOT NULL,
	"order_id" integer,
	CONSTRAINT "quotes_public_token_unique" UNIQUE("public_token")
);
--> statement-breakpoint
CREATE TABLE "shipment_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"shipment_id" integer NOT NULL,
	"order_line_item_id" integer NOT NULL,
	"quantity" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipments" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"shipping_date" timestamp with time zone,
	"carrier" text NOT NULL,
	"ship_method" text NOT NULL,
	"tracking_number" text NOT NULL,
	"to_city" text,
	"to_state" text,
	"to_country" text,
	"from_city" text,
	"from_state" text,
	"from_country_code" text,
	"is_delivered" boolean DEFAULT false NOT NULL,
	CONSTRAINT "shipments_tracking_number_unique" UNIQUE("tracking_number")
);
--> statement-breakpoint
CREATE TABLE "shipping_options" (
	"service_code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"carrier_name" text NOT NULL,
	"service_name" text NOT NULL,
	"base_price" bigint NOT NULL,
	"per_item_price" bigint NOT NULL,
	"is_disabled" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tax_rates" (
	"id" serial PRIMARY KEY NOT NULL,
	"country_code" text NOT NULL,
	"region" text NOT NULL,
	"rate_basis_points" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tracking_activity" (
	"id" serial PRIMARY KEY NOT NULL,
	"tracking_number" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"location_description" text NOT NULL,
	"description" text NOT NULL,
	"signed_for_by_name" text
);
--> statement-breakpoint
CREATE TABLE "uploaded_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer,
	"user_id" integer,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"stored_path" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_message_views" ADD CONSTRAINT "account_message_views_message_id_account_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."account_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_message_views" ADD CONSTRAINT "account_message_views_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_messages" ADD CONSTRAINT "account_messages_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_user_assignments" ADD CONSTRAINT "pending_user_assignments_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remembered_devices" ADD CONSTRAINT "remembered_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saml_configs" ADD CONSTRAINT "saml_configs_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_assignments" ADD CONSTRAINT "user_assignments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_assignments" ADD CONSTRAINT "user_assignments_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_active_subscription_id_subscriptions_id_fk" FOREIGN KEY ("active_subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_groups" ADD CONSTRAINT "channel_groups_sensor_id_sensors_id_fk" FOREIGN KEY ("sensor_id") REFERENCES "public"."sensors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_channel_group_id_channel_groups_id_fk" FOREIGN KEY ("channel_group_id") REFERENCES "public"."channel_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_link_id_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."links"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entity_tags" ADD CONSTRAINT "entity_tags_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "links" ADD CONSTRAINT "links_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "samples" ADD CONSTRAINT "samples_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sensors" ADD CONSTRAINT "sensors_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_channels" ADD CONSTRAINT "report_channels_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_channels" ADD CONSTRAINT "report_channels_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_thresholds" ADD CONSTRAINT "report_thresholds_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_thresholds" ADD CONSTRAINT "report_thresholds_threshold_range_id_threshold_ranges_id_fk" FOREIGN KEY ("threshold_range_id") REFERENCES "public"."threshold_ranges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "threshold_ranges" ADD CONSTRAINT "threshold_ranges_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "threshold_ranges" ADD CONSTRAINT "threshold_ranges_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "addresses" ADD CONSTRAINT "addresses_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "addresses" ADD CONSTRAINT "addresses_country_id_countries_id_fk" FOREIGN KEY ("country_id") REFERENCES "public"."countries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_line_items" ADD CONSTRAINT "order_line_items_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_shipping_address_id_addresses_id_fk" FOREIGN KEY ("shipping_address_id") REFERENCES "public"."addresses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_billing_address_id_addresses_id_fk" FOREIGN KEY ("billing_address_id") REFERENCES "public"."addresses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_line_items" ADD CONSTRAINT "quote_line_items_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_shipping_address_id_addresses_id_fk" FOREIGN KEY ("shipping_address_id") REFERENCES "public"."addresses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_billing_address_id_addresses_id_fk" FOREIGN KEY ("billing_address_id") REFERENCES "public"."addresses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_items" ADD CONSTRAINT "shipment_items_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_items" ADD CONSTRAINT "shipment_items_order_line_item_id_order_line_items_id_fk" FOREIGN KEY ("order_line_item_id") REFERENCES "public"."order_line_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploaded_files" ADD CONSTRAINT "uploaded_files_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploaded_files" ADD CONSTRAINT "uploaded_files_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "user_assignments_user_sub" ON "user_assignments" USING btree ("user_id","subscription_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "channel_groups_sensor" ON "channel_groups" USING btree ("sensor_id");--> statement-breakpoint
CREATE INDEX "channels_group" ON "channels" USING btree ("channel_group_id");--> statement-breakpoint
CREATE INDEX "devices_subscription" ON "devices" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "entity_tags_entity" ON "entity_tags" USING btree ("entity_type","entity_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sensors_device_mac" ON "sensors" USING btree ("device_id","mac_address");--> statement-breakpoint
CREATE UNIQUE INDEX "tags_sub_name" ON "tags" USING btree ("subscription_id",lower("name"));--> statement-breakpoint
CREATE INDEX "order_line_items_order" ON "order_line_items" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "orders_subscription" ON "orders" USING btree ("subscription_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_idempotency" ON "payments" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "quote_line_items_quote" ON "quote_line_items" USING btree ("quote_id");--> statement-breakpoint
CREATE INDEX "shipments_order" ON "shipments" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tax_rates_country_region" ON "tax_rates" USING btree ("country_code","region");--> statement-breakpoint
CREATE INDEX "tracking_activity_number" ON "tracking_activity" USING btree ("tracking_number");