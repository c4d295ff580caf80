SELECT json_build_object('quantity', "t0"."quantity", 'unit_price', "t0"."unit_price", 'total', ("t0"."quantity" * "t0"."unit_price"), 'order', (SELECT json_build_object('status', "t1"."status") AS result FROM "public"."orders" AS "t1" WHERE "t1"."id" = "t0"."order_id")) AS result FROM "public"."order_items" AS "t0" WHERE ("t0"."order_id" = CAST($1 AS integer) AND "t0"."line" = CAST($2 AS integer)) LIMIT 1;

SELECT json_build_object('name', "t0"."name") AS result FROM "public"."customers" AS "t0" WHERE "t0"."id" = CAST($1 AS integer) LIMIT 1;

SELECT json_build_object('id', "t0"."id", 'name', "t0"."name") AS result FROM "public"."products" AS "t0" WHERE "t0"."sku" = $1 LIMIT 1;

SELECT COALESCE(json_agg(json_build_object('customer_id', "t0"."customer_id", 'orders_count', "t0"."orders_count", 'revenue', "t0"."revenue", 'customer', (SELECT json_build_object('name', "t1"."name") AS result FROM "public"."customers" AS "t1" WHERE "t1"."id" = "t0"."customer_id")) ORDER BY "t0"."revenue" DESC NULLS LAST), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."customer_revenue" AS "t0" ORDER BY "t0"."revenue" DESC NULLS LAST LIMIT 2000) AS "t0";
