SELECT to_json((SELECT sum(quantity * unit_price) FROM "shop"."main".order_items WHERE order_id = CAST($1 AS INTEGER))) AS result;

SELECT to_json((SELECT sum(quantity * unit_price) FROM "shop"."main".order_items WHERE order_id = CAST($1 AS INTEGER))) AS result;

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list(_f) END) AS result FROM (SELECT * FROM (SELECT o.id, o.status, (SELECT sum(i.quantity * i.unit_price) FROM "shop"."main".order_items i WHERE i.order_id = o.id) AS total FROM "shop"."main".orders o WHERE o.customer_id = CAST($1 AS INTEGER) ORDER BY o.id) AS _l LIMIT 10001) AS _f;

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list(_f) END) AS result FROM (SELECT * FROM (SELECT o.id, o.status, (SELECT sum(i.quantity * i.unit_price) FROM "shop"."main".order_items i WHERE i.order_id = o.id) AS total FROM "shop"."main".orders o WHERE o.customer_id = CAST($1 AS INTEGER) ORDER BY o.id) AS _l LIMIT 10001) AS _f;
