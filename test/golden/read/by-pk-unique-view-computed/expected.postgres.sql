SELECT "t0"."quantity" AS c0, "t0"."unit_price" AS c1, ("t0"."quantity" * "t0"."unit_price") AS c2, _r0.m0 AS c3, _r0.c4 AS c4 FROM "public"."order_items" AS "t0" LEFT JOIN LATERAL (SELECT 1 AS m0, "t1"."status" AS c4 FROM "public"."orders" AS "t1" WHERE "t1"."id" = "t0"."order_id") AS _r0 ON TRUE WHERE ("t0"."order_id" = CAST($1 AS integer) AND "t0"."line" = CAST($2 AS integer)) LIMIT 1;

SELECT "t0"."name" AS c0 FROM "public"."customers" AS "t0" WHERE "t0"."id" = CAST($1 AS integer) LIMIT 1;

SELECT "t0"."id" AS c0, "t0"."name" AS c1 FROM "public"."products" AS "t0" WHERE "t0"."sku" = $1 LIMIT 1;

SELECT "t0"."customer_id" AS c0, "t0"."orders_count" AS c1, "t0"."revenue" AS c2, _r0.m0 AS c3, _r0.c4 AS c4 FROM (SELECT "t0".* FROM "public"."customer_revenue" AS "t0" ORDER BY "t0"."revenue" DESC NULLS LAST LIMIT 2000) AS "t0" LEFT JOIN LATERAL (SELECT 1 AS m0, "t1"."name" AS c4 FROM "public"."customers" AS "t1" WHERE "t1"."id" = "t0"."customer_id") AS _r0 ON TRUE ORDER BY "t0"."revenue" DESC NULLS LAST;
