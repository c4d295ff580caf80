SELECT "t0"."id" AS c0, to_json("t0"."ship_date") AS c1 FROM (SELECT "t0".* FROM "public"."orders" AS "t0" ORDER BY "t0"."ship_date" ASC NULLS FIRST, "t0"."id" ASC LIMIT 3) AS "t0" ORDER BY "t0"."ship_date" ASC NULLS FIRST, "t0"."id" ASC;

SELECT "t0"."id" AS c0, "t0"."note" AS c1 FROM (SELECT "t0".* FROM "public"."orders" AS "t0" ORDER BY "t0"."note" DESC NULLS LAST, "t0"."id" DESC LIMIT 3) AS "t0" ORDER BY "t0"."note" DESC NULLS LAST, "t0"."id" DESC;

SELECT "t0"."name" AS c0, "t0"."email" AS c1 FROM (SELECT "t0".* FROM "public"."customers" AS "t0" ORDER BY "t0"."email" DESC NULLS LAST LIMIT 2000) AS "t0" ORDER BY "t0"."email" DESC NULLS LAST;

SELECT "t0"."order_id" AS c0, "t0"."line" AS c1, _r0.m0 AS c2, _r0.c3 AS c3 FROM (SELECT "t0".*, row_number() OVER (ORDER BY (SELECT "t1"."note" FROM "public"."orders" AS "t1" WHERE "t1"."id" = "t0"."order_id" LIMIT 1) ASC NULLS FIRST, "t0"."order_id" ASC, "t0"."line" ASC) AS "__svc_rn" FROM "public"."order_items" AS "t0" ORDER BY (SELECT "t1"."note" FROM "public"."orders" AS "t1" WHERE "t1"."id" = "t0"."order_id" LIMIT 1) ASC NULLS FIRST, "t0"."order_id" ASC, "t0"."line" ASC LIMIT 4) AS "t0" LEFT JOIN LATERAL (SELECT 1 AS m0, "t1"."note" AS c3 FROM "public"."orders" AS "t1" WHERE "t1"."id" = "t0"."order_id") AS _r0 ON TRUE ORDER BY "t0"."__svc_rn";
