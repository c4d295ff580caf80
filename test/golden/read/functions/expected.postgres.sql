SELECT to_json((SELECT sum(quantity * unit_price) FROM "public".order_items WHERE order_id = CAST($1 AS integer))) AS result;

SELECT to_json((SELECT sum(quantity * unit_price) FROM "public".order_items WHERE order_id = CAST($1 AS integer))) AS result;

SELECT COALESCE(json_agg(_f), '[]'::json) AS result FROM (SELECT * FROM (SELECT o.id, o.status, (SELECT sum(i.quantity * i.unit_price) FROM "public".order_items i WHERE i.order_id = o.id) AS total FROM "public".orders o WHERE o.customer_id = CAST($1 AS integer) ORDER BY o.id) AS _l LIMIT 10001) AS _f;

SELECT COALESCE(json_agg(_f), '[]'::json) AS result FROM (SELECT * FROM (SELECT o.id, o.status, (SELECT sum(i.quantity * i.unit_price) FROM "public".order_items i WHERE i.order_id = o.id) AS total FROM "public".orders o WHERE o.customer_id = CAST($1 AS integer) ORDER BY o.id) AS _l LIMIT 10001) AS _f;
