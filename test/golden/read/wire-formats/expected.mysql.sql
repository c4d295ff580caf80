SELECT JSON_OBJECT('id', "t0"."id", 'ordered_at', IF(MICROSECOND("t0"."ordered_at") = 0, DATE_FORMAT("t0"."ordered_at", '%Y-%m-%dT%H:%i:%sZ'), DATE_FORMAT("t0"."ordered_at", '%Y-%m-%dT%H:%i:%s.%fZ')), 'ship_date', DATE_FORMAT("t0"."ship_date", '%Y-%m-%d'), 'note', "t0"."note") AS result FROM "svc_golden"."orders" AS "t0" WHERE "t0"."id" = $1 LIMIT 1;

SELECT JSON_OBJECT('price', CAST("t0"."price" AS DOUBLE), 'in_stock', IF("t0"."in_stock" IS NULL, NULL, IF("t0"."in_stock", TRUE, FALSE)), 'attributes', JSON_EXTRACT("t0"."attributes", '$')) AS result FROM "svc_golden"."products" AS "t0" WHERE "t0"."id" = $1 LIMIT 1;

SELECT JSON_OBJECT('created_at', IF(MICROSECOND("t0"."created_at") = 0, DATE_FORMAT("t0"."created_at", '%Y-%m-%dT%H:%i:%sZ'), DATE_FORMAT("t0"."created_at", '%Y-%m-%dT%H:%i:%s.%fZ'))) AS result FROM "svc_golden"."customers" AS "t0" WHERE "t0"."id" = $1 LIMIT 1;
