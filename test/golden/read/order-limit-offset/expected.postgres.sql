SELECT "t0"."sku" AS c0, "t0"."price" AS c1 FROM (SELECT "t0".* FROM "public"."products" AS "t0" ORDER BY "t0"."price" DESC LIMIT 2) AS "t0" ORDER BY "t0"."price" DESC;

SELECT "t0"."id" AS c0 FROM (SELECT "t0".* FROM "public"."products" AS "t0" ORDER BY "t0"."id" ASC LIMIT 2 OFFSET 1) AS "t0" ORDER BY "t0"."id" ASC;

SELECT "t0"."id" AS c0, _r0.m0 AS c1, _r0.c2 AS c2 FROM (SELECT "t0".*, row_number() OVER (ORDER BY (SELECT "t1"."name" FROM "public"."customers" AS "t1" WHERE "t1"."id" = "t0"."customer_id" LIMIT 1) ASC NULLS FIRST, "t0"."id" DESC) AS "__svc_rn" FROM "public"."orders" AS "t0" ORDER BY (SELECT "t1"."name" FROM "public"."customers" AS "t1" WHERE "t1"."id" = "t0"."customer_id" LIMIT 1) ASC NULLS FIRST, "t0"."id" DESC LIMIT 2000) AS "t0" LEFT JOIN LATERAL (SELECT 1 AS m0, "t1"."name" AS c2 FROM "public"."customers" AS "t1" WHERE "t1"."id" = "t0"."customer_id") AS _r0 ON TRUE ORDER BY "t0"."__svc_rn";

SELECT "t0"."name" AS c0 FROM (SELECT "t0".* FROM "public"."customers" AS "t0" ORDER BY "t0"."name" DESC LIMIT 2000) AS "t0" ORDER BY "t0"."name" DESC;

SELECT COALESCE(json_agg(json_build_object('customer_id', "t0"."customer_id", 'ordered_at', CASE WHEN "t0"."ordered_at" IS NULL THEN NULL WHEN extract(microseconds FROM "t0"."ordered_at")::bigint % 1000000 = 0 THEN to_char(("t0"."ordered_at" AT TIME ZONE 'UTC'), 'YYYY-MM-DD"T"HH24:MI:SS') || 'Z' ELSE to_char(("t0"."ordered_at" AT TIME ZONE 'UTC'), 'YYYY-MM-DD"T"HH24:MI:SS.US') || 'Z' END) ORDER BY "t0"."customer_id" ASC NULLS FIRST, "t0"."customer_id" ASC, "t0"."ordered_at" DESC), '[]'::json) AS result FROM (SELECT DISTINCT ON ("t0"."customer_id") "t0".* FROM "public"."orders" AS "t0" ORDER BY "t0"."customer_id" ASC NULLS FIRST, "t0"."customer_id" ASC, "t0"."ordered_at" DESC LIMIT 2000) AS "t0";
