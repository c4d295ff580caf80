SELECT COALESCE(json_agg(json_build_object('id', "t0"."id") ORDER BY "t0"."id" ASC), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."customers" AS "t0" WHERE "t0"."country" = $1 ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT COALESCE(json_agg(json_build_object('id', "t0"."id") ORDER BY "t0"."id" ASC), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."customers" AS "t0" WHERE "t0"."country" = ANY($1) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT COALESCE(json_agg(json_build_object('id', "t0"."id", 'price', "t0"."price") ORDER BY "t0"."id" ASC), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."products" AS "t0" WHERE ("t0"."price" > CAST($1 AS double precision) AND "t0"."price" <= CAST($2 AS double precision)) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT COALESCE(json_agg(json_build_object('id', "t0"."id") ORDER BY "t0"."id" ASC), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."products" AS "t0" WHERE "t0"."price" <> CAST($1 AS double precision) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT COALESCE(json_agg(json_build_object('id', "t0"."id", 'sku', "t0"."sku") ORDER BY "t0"."id" ASC), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."products" AS "t0" WHERE "t0"."sku" LIKE CAST($1 AS text) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT COALESCE(json_agg(json_build_object('name', "t0"."name")), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."customers" AS "t0" WHERE "t0"."name" ILIKE CAST($1 AS text) LIMIT 2000) AS "t0";

SELECT COALESCE(json_agg(json_build_object('id', "t0"."id") ORDER BY "t0"."id" ASC), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."products" AS "t0" WHERE "t0"."name" ~ CAST($1 AS text) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT COALESCE(json_agg(json_build_object('name', "t0"."name")), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."customers" AS "t0" WHERE "t0"."email" IS NULL LIMIT 2000) AS "t0";

SELECT COALESCE(json_agg(json_build_object('id', "t0"."id", 'note', "t0"."note") ORDER BY "t0"."id" ASC), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."orders" AS "t0" WHERE "t0"."note" IS NOT NULL ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT COALESCE(json_agg(json_build_object('sku', "t0"."sku")), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."products" AS "t0" WHERE "t0"."in_stock" = CAST($1 AS boolean) LIMIT 2000) AS "t0";

SELECT COALESCE(json_agg(json_build_object('id', "t0"."id", 'ordered_at', CASE WHEN "t0"."ordered_at" IS NULL THEN NULL WHEN extract(microseconds FROM "t0"."ordered_at")::bigint % 1000000 = 0 THEN to_char(("t0"."ordered_at" AT TIME ZONE 'UTC'), 'YYYY-MM-DD"T"HH24:MI:SS') || 'Z' ELSE to_char(("t0"."ordered_at" AT TIME ZONE 'UTC'), 'YYYY-MM-DD"T"HH24:MI:SS.US') || 'Z' END) ORDER BY "t0"."id" ASC), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."orders" AS "t0" WHERE ("t0"."ordered_at" >= CAST($1 AS timestamptz) AND "t0"."ordered_at" < CAST($2 AS timestamptz)) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT COALESCE(json_agg(json_build_object('id', "t0"."id", 'ship_date', "t0"."ship_date")), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."orders" AS "t0" WHERE "t0"."ship_date" <= CAST($1 AS date) LIMIT 2000) AS "t0";
