SELECT JSON_ARRAY("t0"."quantity", CAST("t0"."unit_price" AS DOUBLE), CAST(("t0"."quantity" * "t0"."unit_price") AS DOUBLE), (SELECT JSON_ARRAY("t1"."status") AS result FROM "svc_golden"."orders" AS "t1" WHERE "t1"."id" = "t0"."order_id")) AS r FROM "svc_golden"."order_items" AS "t0" WHERE ("t0"."order_id" = $1 AND "t0"."line" = $2) LIMIT 1;

SELECT JSON_ARRAY("t0"."name") AS r FROM "svc_golden"."customers" AS "t0" WHERE "t0"."id" = $1 LIMIT 1;

SELECT JSON_ARRAY("t0"."id", "t0"."name") AS r FROM "svc_golden"."products" AS "t0" WHERE "t0"."sku" = $1 LIMIT 1;

SELECT JSON_ARRAY("t0"."customer_id", "t0"."orders_count", CAST("t0"."revenue" AS DOUBLE), (SELECT JSON_ARRAY("t1"."name") AS result FROM "svc_golden"."customers" AS "t1" WHERE "t1"."id" = "t0"."customer_id")) AS r FROM (SELECT "t0".* FROM "svc_golden"."customer_revenue" AS "t0" ORDER BY "t0"."revenue" DESC LIMIT 2000) AS "t0" ORDER BY "t0"."revenue" DESC;
