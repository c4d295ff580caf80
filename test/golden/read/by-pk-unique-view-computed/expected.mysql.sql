SELECT JSON_OBJECT('quantity', "t0"."quantity", 'unit_price', CAST("t0"."unit_price" AS DOUBLE), 'total', CAST(("t0"."quantity" * "t0"."unit_price") AS DOUBLE), 'order', (SELECT JSON_OBJECT('status', "t1"."status") AS result FROM "svc_golden"."orders" AS "t1" WHERE "t1"."id" = "t0"."order_id")) AS result FROM "svc_golden"."order_items" AS "t0" WHERE ("t0"."order_id" = $1 AND "t0"."line" = $2) LIMIT 1;

SELECT JSON_OBJECT('name', "t0"."name") AS result FROM "svc_golden"."customers" AS "t0" WHERE "t0"."id" = $1 LIMIT 1;

SELECT JSON_OBJECT('id', "t0"."id", 'name', "t0"."name") AS result FROM "svc_golden"."products" AS "t0" WHERE "t0"."sku" = $1 LIMIT 1;

SELECT COALESCE(JSON_ARRAYAGG("_s"."__svc_j" ORDER BY "_s"."__svc_rn"), JSON_ARRAY()) AS result FROM (SELECT JSON_OBJECT('customer_id', "t0"."customer_id", 'orders_count', "t0"."orders_count", 'revenue', CAST("t0"."revenue" AS DOUBLE), 'customer', (SELECT JSON_OBJECT('name', "t1"."name") AS result FROM "svc_golden"."customers" AS "t1" WHERE "t1"."id" = "t0"."customer_id")) AS "__svc_j", ROW_NUMBER() OVER (ORDER BY "t0"."revenue" DESC) AS "__svc_rn" FROM "svc_golden"."customer_revenue" AS "t0" ORDER BY "t0"."revenue" DESC LIMIT 2000) AS "_s";
