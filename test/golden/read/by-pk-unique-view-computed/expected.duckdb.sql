SELECT to_json({'quantity': "t0"."quantity", 'unit_price': "t0"."unit_price", 'total': ("t0"."quantity" * "t0"."unit_price"), 'order': CASE WHEN "t1"."id" IS NULL THEN NULL ELSE {'status': "t1"."status"} END}) AS result FROM "shop"."main"."order_items" AS "t0" LEFT JOIN "shop"."main"."orders" AS "t1" ON "t1"."id" = "t0"."order_id" WHERE ("t0"."order_id" = CAST($1 AS INTEGER) AND "t0"."line" = CAST($2 AS INTEGER)) LIMIT 1;

SELECT to_json({'name': "t0"."name"}) AS result FROM "shop"."main"."customers" AS "t0" WHERE "t0"."id" = CAST($1 AS INTEGER) LIMIT 1;

SELECT to_json({'id': "t0"."id", 'name': "t0"."name"}) AS result FROM "shop"."main"."products" AS "t0" WHERE "t0"."sku" = CAST($1 AS VARCHAR) LIMIT 1;

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'customer_id': "t0"."customer_id", 'orders_count': "t0"."orders_count", 'revenue': "t0"."revenue", 'customer': CASE WHEN "t1"."id" IS NULL THEN NULL ELSE {'name': "t1"."name"} END} ORDER BY "t0"."revenue" DESC) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."customer_revenue" AS "t0" ORDER BY "t0"."revenue" DESC LIMIT 2000) AS "t0" LEFT JOIN "shop"."main"."customers" AS "t1" ON "t1"."id" = "t0"."customer_id";
